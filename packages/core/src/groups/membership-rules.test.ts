import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { assertReplaceConfirmed, nextMembers } from './membership-rules.ts';

const fieldOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof LecternError);
    return Object.keys(error.fieldErrors ?? {})[0];
  }
  return undefined;
};

describe('membership rules', () => {
  it('computes the next set for add, remove and replace', () => {
    assert.deepEqual([...nextMembers([1, 2], 'add', [2, 3])].sort(), [1, 2, 3]);
    assert.deepEqual([...nextMembers([1, 2], 'remove', [2, 9])], [1]);
    assert.deepEqual([...nextMembers([1, 2], 'replace', [5])], [5]);
  });

  it('requires confirm_replace, then confirm_large_removal above half', () => {
    const yes = { confirm_replace: true, confirm_large_removal: false };
    assert.equal(
      fieldOf(() => assertReplaceConfirmed('member', [1], new Set([1]), { confirm_replace: false, confirm_large_removal: true })),
      'confirm_replace',
    );
    assert.equal(
      fieldOf(() => assertReplaceConfirmed('member', [1, 2, 3, 4], new Set([1, 2]), yes)),
      undefined,
      'exactly half',
    );
    assert.equal(
      fieldOf(() => assertReplaceConfirmed('member', [1, 2, 3, 4], new Set([1]), yes)),
      'confirm_large_removal',
    );
    assert.equal(
      fieldOf(() => assertReplaceConfirmed('owner', [1, 2, 3], new Set([9]), { ...yes, confirm_large_removal: true })),
      undefined,
    );
    assert.equal(
      fieldOf(() => assertReplaceConfirmed('member', [], new Set([1]), yes)),
      undefined,
      'nothing to remove',
    );
  });
});
