/**
 * A bulk job outlives the request that submitted it, so it must not keep the rights its submitter
 * had then: before each chunk the engine reads who the submitter is now and runs the chunk with
 * those rights, or fails the chunk's items when the authority is gone.
 */
import { authorize, type Actor } from '../auth/actor.ts';
import { roleGrants, type Role, type Scope } from '../auth/scopes.ts';
import { forbidden, isLecternError } from '../shared/errors.ts';
import type { StoredActor } from './job.ts';

/** The submitter as stored now: through the token the job was submitted with, if any. */
export interface SubmitterState {
  role: Role;
  isActive: boolean;
  /** the token's scopes, or the stored actor's for a job submitted without a token */
  scopes: readonly Scope[];
  /** the token's expiry; null for no token or one that never expires */
  expiresAt: string | null;
}

type StoredUser = Extract<StoredActor, { kind: 'user' }>;

/**
 * The actor a chunk runs as, with the current role's rights (the token never exceeds the role, as
 * at authentication). Throws `forbidden`, naming why, when the submitter may no longer run a job
 * that needs `scope`: the token revoked (`state` undefined) or expired, the user deactivated or
 * gone, or a role that no longer grants the scope.
 */
export function actingSubmitter(stored: StoredUser, state: SubmitterState | undefined, now: string, scope: Scope): Actor {
  const refuse = (why: string) => forbidden(`The submitter of this job may no longer run it: ${why}`);
  if (!state) throw refuse(stored.tokenId !== undefined ? 'the token it was submitted with was revoked.' : 'the user no longer exists.');
  if (!state.isActive) throw refuse('the user is deactivated.');
  if (state.expiresAt !== null && state.expiresAt <= now) throw refuse('the token it was submitted with has expired.');
  const actor: Actor = {
    kind: 'user',
    userId: stored.userId,
    publicId: stored.publicId,
    role: state.role,
    scopes: new Set(state.scopes.filter((granted) => roleGrants[state.role].has(granted))),
    ...(stored.tokenId !== undefined ? { tokenId: stored.tokenId } : {}),
  };
  try {
    authorize(actor, scope);
  } catch (error) {
    throw isLecternError(error) ? refuse(error.message) : error;
  }
  return actor;
}
