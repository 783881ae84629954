/** Pure rules about users; the service supplies the facts. */
import { conflict, fieldError } from '../shared/errors.ts';

/**
 * A manager may not be the user, nor anyone the user (transitively) manages.
 * `managerChain` lists the proposed manager's own managers, nearest first.
 */
export function assertManagerAllowed(userId: number, proposedManagerId: number, managerChain: readonly number[]): void {
  if (proposedManagerId === userId) throw fieldError('manager', 'A user cannot be their own manager.');
  if (managerChain.includes(userId)) {
    throw fieldError('manager', 'This manager would create a cycle: the user already manages them, directly or indirectly.');
  }
}

/** The last active admin can be neither demoted nor deactivated: the tenant would become unmanageable. */
export function assertKeepsAnAdmin(
  before: { role: string; is_active: boolean },
  after: { role: string; is_active: boolean },
  activeAdmins: number,
): void {
  const wasActiveAdmin = before.role === 'admin' && before.is_active;
  const staysActiveAdmin = after.role === 'admin' && after.is_active;
  if (wasActiveAdmin && !staysActiveAdmin && activeAdmins <= 1) {
    throw conflict('conflict', 'This is the last active admin; make another user an admin first.');
  }
}
