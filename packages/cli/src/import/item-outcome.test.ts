import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMPORT_KINDS } from './import-kinds.ts';
import { outcomeOfItem } from './item-outcome.ts';

describe('a job item in the report', () => {
  const base = { index: 0, public_id: 'p1', created: null, error: null };

  it('is created, or existing when create-or-get found the resource', () => {
    assert.deepEqual(outcomeOfItem(IMPORT_KINDS.assignments, { ...base, status: 'succeeded', created: true }), {
      status: 'created',
      public_id: 'p1',
    });
    assert.deepEqual(outcomeOfItem(IMPORT_KINDS.assignments, { ...base, status: 'succeeded', created: false }), {
      status: 'existing',
      public_id: 'p1',
    });
  });

  it('is existing for a user whose email is taken, failed for anything else', () => {
    const duplicate = { ...base, status: 'failed' as const, error: { code: 'duplicate', message: 'taken' } };
    assert.deepEqual(outcomeOfItem(IMPORT_KINDS.users, duplicate), { status: 'existing', public_id: 'p1' });
    assert.deepEqual(outcomeOfItem(IMPORT_KINDS.assignments, duplicate), {
      status: 'failed',
      public_id: 'p1',
      error_code: 'duplicate',
      error_message: 'taken',
    });
    assert.deepEqual(
      outcomeOfItem(IMPORT_KINDS.enrollments, { ...base, public_id: null, status: 'failed', error: { code: 'full', message: 'No seat.' } }),
      {
        status: 'failed',
        public_id: null,
        error_code: 'full',
        error_message: 'No seat.',
      },
    );
  });
});
