import { forbidden, LecternError } from '../shared/errors.ts';
import { roleGrants, type Role, type Scope } from './scopes.ts';

/** Who is calling. Embedders acting as the application itself use the system actor. */
export type Actor =
  | { kind: 'system' }
  | {
      kind: 'user';
      userId: number;
      publicId: string;
      role: Role;
      scopes: ReadonlySet<Scope>;
      /** the API token used, when the call came through one */
      tokenId?: number;
    };

export const systemActor: Actor = { kind: 'system' };

/** What every service call carries: the actor, and the request id that per-item errors repeat. */
export interface RequestContext {
  actor: Actor;
  requestId: string;
}

/**
 * The route-level gate, called first by every service method: a role that can never use the
 * route is `forbidden`; a role that could, through a token lacking the scope, is `insufficient_scope`.
 */
export function authorize(actor: Actor, scope: Scope): void {
  if (actor.kind === 'system') return;
  if (!roleGrants[actor.role].has(scope)) {
    throw forbidden(`Your role (${actor.role}) does not permit this action.`);
  }
  if (!actor.scopes.has(scope)) {
    throw new LecternError('insufficient_scope', `This token lacks the scope '${scope}' that this route requires.`);
  }
}

/** Whether `authorize(actor, scope)` would pass: for lists that show each caller the kinds it may read. */
export const permits = (actor: Actor, scope: Scope): boolean =>
  actor.kind === 'system' || (roleGrants[actor.role].has(scope) && actor.scopes.has(scope));

/** Role `user`: limited to its own records and to the content it may see (docs/api.md). */
export const isLearner = (actor: Actor): actor is Extract<Actor, { kind: 'user' }> => actor.kind === 'user' && actor.role === 'user';

export const isAdmin = (actor: Actor): boolean => actor.kind === 'system' || actor.role === 'admin';

/** Internal id of the calling user, or null for the system actor. */
export const actorUserId = (actor: Actor): number | null => (actor.kind === 'user' ? actor.userId : null);
