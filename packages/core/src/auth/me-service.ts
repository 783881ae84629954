import type { ServiceDeps } from '../service-deps.ts';
import { badRequest } from '../shared/errors.ts';
import type { RequestContext } from './actor.ts';
import type { Me } from './me.ts';
import { scopes as allScopes } from './scopes.ts';
import { invalidToken } from './token-service.ts';

export class MeService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * `GET /me/`: needs no scope, since a client must be able to learn what its token may do before
   * it has any particular scope; authentication alone makes the caller known.
   */
  async get(ctx: RequestContext): Promise<Me> {
    const actor = ctx.actor;
    if (actor.kind !== 'user') throw badRequest('The application itself (the system actor) is not a user.');
    const user = await this.deps.storage.users.findById(actor.userId);
    const token = actor.tokenId === undefined ? null : await this.deps.storage.tokens.findById(actor.tokenId);
    // revoked or deleted between authentication and this read: the same answer the next request gets
    if (!user || token === undefined) throw invalidToken();
    return {
      user: { public_id: user.view.public_id, name: user.view.name, email: user.view.email, role: actor.role },
      token: token && {
        public_id: token.view.public_id,
        name: token.view.name,
        scopes: allScopes.filter((scope) => actor.scopes.has(scope)),
        expires_at: token.view.expires_at,
      },
    };
  }
}
