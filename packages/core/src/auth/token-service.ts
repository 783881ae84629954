import type { Stores } from '../ports/storage.ts';
import type { RateCounterStore, TokenWindows } from '../ports/rate-counter-store.ts';
import type { TokenCredentials } from '../ports/token-store.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { badRequest, fieldError, LecternError, notFound } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { whenSettled } from '../shared/maybe-promise.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import { authorize, isAdmin, systemActor, type Actor, type RequestContext } from './actor.ts';
import { createTokenInput, tokenListSpec, type ApiToken, type ApiTokenRecord, type IssuedApiToken } from './api-token.ts';
import { grantedScopes, roleGrants, scopes as allScopes, type Role, type Scope } from './scopes.ts';
import { generateTokenSecret, hashToken, looksLikeToken, tokenDisplayPrefix } from './token-secret.ts';

export const invalidToken = () => new LecternError('invalid_token', 'The API token is invalid, expired or revoked.');

export interface IssueTokenRequest {
  userId: number;
  role: Role;
  name: string;
  scopes?: readonly string[] | undefined;
  expiresAt?: string | null | undefined;
}

export class TokenService {
  /** last use per token id, written to storage in the background rather than on every request */
  private readonly pendingUses = new Map<number, string>();
  private readonly grantedSets = new WeakMap<readonly Scope[], Map<Role, ReadonlySet<Scope>>>();

  constructor(private readonly deps: ServiceDeps) {}

  /** `POST /api-tokens/`: a token for the calling user. */
  async create(ctx: RequestContext, body: InputOf<typeof createTokenInput>): Promise<IssuedApiToken> {
    authorize(ctx.actor, 'tokens:write');
    if (ctx.actor.kind !== 'user') throw badRequest('Tokens are issued to users; use issue() with a user id.');
    const input = parseInput(createTokenInput, body);
    return this.issue(
      {
        userId: ctx.actor.userId,
        role: ctx.actor.role,
        name: input.name,
        scopes: input.scopes,
        expiresAt: input.expires_at,
      },
      undefined,
      ctx,
    );
  }

  /**
   * Issues a token for any user (the CLI and the bootstrap use this directly), recording
   * `api_token.created` as done by `ctx` (the system actor, the command line, by default).
   * Pass the transaction's stores when issuing inside one.
   */
  async issue(request: IssueTokenRequest, stores?: Stores, ctx: RequestContext = this.systemContext()): Promise<IssuedApiToken> {
    if (!stores) return this.deps.storage.transaction((tx) => this.issue(request, tx, ctx));
    const scopes = this.checkScopes(request.role, request.scopes);
    const now = nowIso(this.deps.clock);
    if (request.expiresAt && request.expiresAt <= now) throw fieldError('expires_at', 'Must be in the future.');
    // Every token has its own rate-limit window: an unbounded number of them would multiply it.
    const limit = this.deps.config.tokens.maxLivePerUser;
    if ((await stores.tokens.countLive(request.userId, now)) >= limit) {
      throw fieldError('name', `A user may hold at most ${limit} live tokens; revoke one, or let one expire, first.`);
    }
    const token = generateTokenSecret();
    const record = await stores.tokens.insert({
      publicId: this.deps.ids.uuid(),
      userId: request.userId,
      name: request.name,
      tokenHash: hashToken(token),
      tokenPrefix: tokenDisplayPrefix(token),
      scopes,
      expiresAt: request.expiresAt ?? null,
      created: now,
    });
    // the entry names the token by its public id; its value is shown once, here, and never stored
    await this.deps.audit.record(stores, ctx, 'api_token.created', record.view.public_id);
    return { ...record.view, token };
  }

  private systemContext(): RequestContext {
    return { actor: systemActor, requestId: this.deps.ids.prefixed('req_') };
  }

  /** The caller's own tokens; admins (and the system actor) see everyone's and may filter by `user`. */
  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<ApiToken>> {
    authorize(ctx.actor, 'tokens:read');
    const query = parseListQuery(tokenListSpec, params);
    const ownerId = isAdmin(ctx.actor) || ctx.actor.kind !== 'user' ? null : ctx.actor.userId;
    return toListResult(query, await this.deps.storage.tokens.list(query, ownerId), (record) => record.view);
  }

  async get(ctx: RequestContext, publicId: string): Promise<ApiToken> {
    authorize(ctx.actor, 'tokens:read');
    return (await this.requireVisible(this.deps.storage, ctx.actor, publicId)).view;
  }

  async revoke(ctx: RequestContext, publicId: string): Promise<void> {
    authorize(ctx.actor, 'tokens:write');
    await this.deps.storage.transaction(async (tx) => {
      const record = await this.requireVisible(tx, ctx.actor, publicId, true);
      await tx.tokens.revoke(record.id, nowIso(this.deps.clock));
      await this.deps.audit.record(tx, ctx, 'api_token.revoked', record.view.public_id);
    });
  }

  /**
   * Resolves a bearer token to its actor. Unknown, expired and revoked tokens, and tokens of
   * deactivated users, are all `invalid_token`; the caller handles a missing header.
   */
  async authenticate(token: string): Promise<Actor> {
    return this.actorOf(token);
  }

  /**
   * `authenticate` without the promise when the store answers at once (SQLite does): the HTTP
   * layer resolves every request's token this way. Throws `invalid_token` rather than rejecting
   * when it answers at once.
   */
  actorOf(token: string): Actor | Promise<Actor> {
    if (!looksLikeToken(token)) throw invalidToken();
    const found = this.deps.storage.tokens.findCredentials(hashToken(token));
    return whenSettled(found, (credentials) => this.actorFrom(credentials));
  }

  /**
   * `actorOf` for servers that share their rate-limit counters: the token is found and its
   * window and its user's are counted in one statement (RateCounterStore.hitByToken), a round trip
   * less per request. Answers the actor and the windows' counts, or throws `invalid_token`.
   */
  async actorCounted(
    token: string,
    counters: RateCounterStore,
    windows: TokenWindows,
  ): Promise<{ actor: Actor; hits: [number, number | null] }> {
    if (!looksLikeToken(token)) throw invalidToken();
    const now = nowIso(this.deps.clock);
    const found = await counters.hitByToken(hashToken(token), now, windows);
    const actor = this.actorFrom(found?.credentials, now);
    // the statement judged the token at the same instant: it counted exactly when actorFrom accepts
    if (!found?.hits) throw invalidToken();
    return { actor, hits: found.hits };
  }

  private actorFrom(credentials: TokenCredentials | undefined, now = nowIso(this.deps.clock)): Actor {
    if (!credentials || !credentials.user.isActive) throw invalidToken();
    if (credentials.expiresAt !== null && credentials.expiresAt <= now) throw invalidToken();
    this.pendingUses.set(credentials.tokenId, now);
    return {
      kind: 'user',
      userId: credentials.user.id,
      publicId: credentials.user.publicId,
      role: credentials.user.role,
      scopes: this.grantedOf(credentials.user.role, credentials.scopes),
      tokenId: credentials.tokenId,
    };
  }

  /**
   * A token never exceeds its user's current role, even if the role was lowered after issue. The
   * store hands out one array per distinct scope list, so the set is derived once per list and role
   * rather than on every request.
   */
  private grantedOf(role: Role, scopes: readonly Scope[]): ReadonlySet<Scope> {
    let byRole = this.grantedSets.get(scopes);
    if (!byRole) this.grantedSets.set(scopes, (byRole = new Map()));
    let granted = byRole.get(role);
    if (!granted) byRole.set(role, (granted = new Set(scopes.filter((scope) => roleGrants[role].has(scope)))));
    return granted;
  }

  /** Writes buffered `last_used_at` values; called periodically and at shutdown. */
  async flushUsage(): Promise<void> {
    if (this.pendingUses.size === 0) return;
    const uses = [...this.pendingUses].map(([id, at]) => ({ id, at }));
    this.pendingUses.clear();
    // a transaction, though nothing else is in it: on SQLite only a transaction takes its turn
    // among the writers, and an UPDATE outside one would wait for the background thread's chunks
    // in the busy handler, which sleeps on the request thread (a 0.9 s stall during an import).
    // Without PostgreSQL's write lock: no rule is checked, and another server writing the same
    // token's last use meanwhile is harmless.
    await this.deps.storage.transaction((tx) => tx.tokens.recordUse(uses), { withoutWriteLock: true });
  }

  private checkScopes(role: Role, requested: readonly string[] | undefined): Scope[] {
    if (requested === undefined) return grantedScopes(role);
    const unknown = requested.filter((scope) => !(allScopes as readonly string[]).includes(scope));
    if (unknown.length > 0) throw fieldError('scopes', `Unknown scopes: ${unknown.join(', ')}.`);
    const denied = requested.filter((scope) => !roleGrants[role].has(scope as Scope));
    if (denied.length > 0) throw fieldError('scopes', `Your role (${role}) cannot grant: ${denied.join(', ')}.`);
    return allScopes.filter((scope) => requested.includes(scope));
  }

  /**
   * The token in force, else not_found; `sayRevoked` words that not_found for a token its caller
   * may see but that was revoked before, so a second revocation is not mistaken for a typo.
   */
  private async requireVisible(stores: Stores, actor: Actor, publicId: string, sayRevoked = false): Promise<ApiTokenRecord> {
    const mayView = (ownerId: number) => isAdmin(actor) || actor.kind !== 'user' || ownerId === actor.userId;
    const record = isUuid(publicId) ? await stores.tokens.findByPublicId(publicId) : undefined;
    if (record && mayView(record.userId)) return record;
    const revoked = !record && sayRevoked && isUuid(publicId) ? await stores.tokens.findRevoked(publicId) : undefined;
    if (revoked && mayView(revoked.userId))
      throw new LecternError('not_found', `API token ${publicId} was already revoked at ${revoked.revokedAt}.`);
    throw notFound('API token');
  }
}
