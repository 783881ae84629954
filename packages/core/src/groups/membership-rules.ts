/** Pure rules of the membership operations (docs/api.md). */
import { fieldError } from '../shared/errors.ts';
import type { GroupRelation, MembershipOperation } from './group.ts';

/** The relation's user ids after an operation. */
export function nextMembers(current: readonly number[], op: MembershipOperation, ids: readonly number[]): Set<number> {
  if (op === 'replace') return new Set(ids);
  const next = new Set(current);
  for (const id of ids) {
    if (op === 'add') next.add(id);
    else next.delete(id);
  }
  return next;
}

/**
 * A replace must be confirmed, and confirmed again when it would remove more than half of the
 * current set, so a script with a truncated list cannot silently empty a group.
 */
export function assertReplaceConfirmed(
  relation: GroupRelation,
  current: readonly number[],
  next: ReadonlySet<number>,
  confirm: { confirm_replace: boolean; confirm_large_removal: boolean },
): void {
  if (!confirm.confirm_replace) {
    throw fieldError('confirm_replace', `Replacing the ${relation}s of a group requires confirm_replace: true.`);
  }
  const removed = current.filter((id) => !next.has(id)).length;
  if (current.length > 0 && removed * 2 > current.length && !confirm.confirm_large_removal) {
    throw fieldError(
      'confirm_large_removal',
      `This would remove ${removed} of ${current.length} current ${relation}s (more than 50%); send confirm_large_removal: true to proceed.`,
    );
  }
}
