import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memberFailures } from './member-failures.ts';

describe('memberFailures', () => {
  it('names the rows the API’s member_ids.N stand for, and nothing else', () => {
    const rows = [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cid' }];
    const failures = memberFailures(rows, { 'member_ids.2': ['No such user.'], 'member_ids.9': ['x'], name: ['y'] }, (row) => row.name);
    assert.deepEqual(failures, [{ name: 'Cid', reason: 'No such user.' }]);
  });
});
