import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorsOf, strayErrors } from './field-errors.ts';

describe('field errors', () => {
  const errors = {
    name: ['Required.'],
    'member_ids.0': ['No user margaret@example.com.'],
    'member_ids.2': ['Must be a UUID.'],
    'timeslots.1.starts_at': ['Must be an ISO-8601 datetime.'],
    member: ['Elsewhere.'],
  };

  it('puts the entries of an array on the array field, naming each entry', () => {
    assert.deepEqual(errorsOf(errors, 'member_ids'), ['Entry 1: No user margaret@example.com.', 'Entry 3: Must be a UUID.']);
    assert.deepEqual(errorsOf(errors, 'timeslots'), ['Entry 2, starts_at: Must be an ISO-8601 datetime.']);
    assert.deepEqual(errorsOf(errors, 'name'), ['Required.']);
    // a prefix of another name is not that field
    assert.deepEqual(errorsOf(errors, 'member'), ['Elsewhere.']);
  });

  it('lists what no field shows, with its path', () => {
    assert.deepEqual(strayErrors(errors, ['name', 'member_ids']), [
      'timeslots.1.starts_at: Must be an ISO-8601 datetime.',
      'member: Elsewhere.',
    ]);
    assert.deepEqual(strayErrors(errors, ['name', 'member_ids', 'timeslots', 'member']), []);
  });
});
