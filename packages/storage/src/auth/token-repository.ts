import type { Kysely } from 'kysely';
import {
  apiTokenSchema,
  tokenListSpec,
  type ApiToken,
  type ApiTokenRecord,
  type ListQuery,
  type Page,
  type Role,
  type Scope,
  whenSettled,
} from '@lectern/core';
import { type NewTokenRow, type TokenCredentials, type TokenStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { preparedLookup } from '../shared/prepared-query.ts';
import { toBool } from '../listing/list-builder.ts';
import { defineResource, referenceTo, recordOf } from '../listing/resource-definition.ts';

/** Tokens, from core's apiTokenSchema: the owner is the user `u`; scopes are kept as JSON. */
const tokenResource = defineResource<ApiToken, Omit<ApiTokenRecord, 'view'>, { t: 'api_tokens' }, { u: 'users' }>(
  apiTokenSchema,
  tokenListSpec,
  {
    table: 'api_tokens',
    alias: 't',
    internal: { id: 't.id', userId: 't.user_id' },
    fields: { scopes: { json: true } },
    references: {
      user: referenceTo('users', 'u', 't.user_id', 'inner'),
    },
    tiebreak: 't.id',
  },
);

function toTokenRecord(row: Record<string, unknown>): ApiTokenRecord {
  return recordOf(tokenResource.toRecord(row));
}

export interface CredentialsRow {
  id: number;
  scopes: string;
  expires_at: string | null;
  user_id: number;
  public_id: string;
  role: string;
  is_active: number;
}

const credentialsQuery = (db: Kysely<Database>) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .where('t.revoked_at', 'is', null)
    .select(['t.id', 't.scopes', 't.expires_at', 'u.id as user_id', 'u.public_id', 'u.role', 'u.is_active']);

// every authenticated request runs this: compiled once (see prepared-query.ts)
const credentialsByHash = preparedLookup<CredentialsRow, [tokenHash: string]>(1, (db: Kysely<Database>, tokenHash) =>
  credentialsQuery(db).where('t.token_hash', '=', tokenHash),
);

/**
 * Scope lists as parsed, by their stored JSON: every request reads its token's, and tokens share
 * a few lists, so the same frozen array is handed out (which also lets core cache what it derives
 * from it). A token's own entry is found by its id first: comparing its JSON with the stored text
 * costs less than hashing that text for the lookup by JSON.
 */
const parsedScopes = new Map<string, Scope[]>();
const scopesByToken = new Map<number, { json: string; scopes: Scope[] }>();
const MAX_PARSED_SCOPES = 1000;

function scopesOf(tokenId: number, json: string): Scope[] {
  const known = scopesByToken.get(tokenId);
  if (known?.json === json) return known.scopes;
  let scopes = parsedScopes.get(json);
  if (!scopes) {
    if (parsedScopes.size >= MAX_PARSED_SCOPES) parsedScopes.clear();
    // frozen: a caller that changed it would change every later request's scopes
    parsedScopes.set(json, (scopes = Object.freeze(JSON.parse(json)) as Scope[]));
  }
  if (scopesByToken.size >= MAX_PARSED_SCOPES) scopesByToken.clear();
  scopesByToken.set(tokenId, { json, scopes });
  return scopes;
}

export function toCredentials(row: CredentialsRow): TokenCredentials {
  return {
    tokenId: row.id,
    scopes: scopesOf(row.id, row.scopes),
    expiresAt: row.expires_at,
    user: { id: row.user_id, publicId: row.public_id, role: row.role as Role, isActive: toBool(row.is_active) },
  };
}

export class TokenRepository implements TokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  private activeTokens() {
    return tokenResource.read(this.db).where('t.revoked_at', 'is', null);
  }

  async insert(row: NewTokenRow): Promise<ApiTokenRecord> {
    await this.db
      .insertInto('api_tokens')
      .values({
        public_id: row.publicId,
        user_id: row.userId,
        name: row.name,
        token_hash: row.tokenHash,
        token_prefix: row.tokenPrefix,
        scopes: JSON.stringify(row.scopes),
        expires_at: row.expiresAt,
        created: row.created,
      })
      .execute();
    return (await this.findByPublicId(row.publicId))!;
  }

  async findByPublicId(publicId: string): Promise<ApiTokenRecord | undefined> {
    const row = await this.activeTokens().where('t.public_id', '=', publicId).executeTakeFirst();
    return row ? toTokenRecord(row) : undefined;
  }

  async findById(id: number): Promise<ApiTokenRecord | undefined> {
    const row = await this.activeTokens().where('t.id', '=', id).executeTakeFirst();
    return row ? toTokenRecord(row) : undefined;
  }

  findCredentials(tokenHash: string): TokenCredentials | undefined | Promise<TokenCredentials | undefined> {
    // answered at once when the read runs at once: every authenticated request comes through here
    const row = credentialsByHash(this.db, tokenHash);
    const credentials = (found: CredentialsRow | undefined) => (found ? toCredentials(found) : undefined);
    return whenSettled(row, credentials);
  }

  async findCredentialsById(tokenId: number): Promise<TokenCredentials | undefined> {
    const row = await credentialsQuery(this.db).where('t.id', '=', tokenId).executeTakeFirst();
    return row ? toCredentials(row) : undefined;
  }

  async list(query: ListQuery, ownerId: number | null): Promise<Page<ApiTokenRecord>> {
    let filtered = this.db.selectFrom('api_tokens as t').where('t.revoked_at', 'is', null);
    if (ownerId !== null) filtered = filtered.where('t.user_id', '=', ownerId);
    const { total, records } = await tokenResource.page(this.db, filtered, query);
    return { total, items: records.map(recordOf) };
  }

  async revoke(id: number, at: string): Promise<void> {
    await this.db.updateTable('api_tokens').set({ revoked_at: at }).where('id', '=', id).execute();
  }

  async findRevoked(publicId: string): Promise<{ userId: number; revokedAt: string } | undefined> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select(['user_id', 'revoked_at'])
      .where('public_id', '=', publicId)
      .where('revoked_at', 'is not', null)
      .executeTakeFirst();
    return row ? { userId: row.user_id, revokedAt: row.revoked_at! } : undefined;
  }

  async revokeAllOfUser(userId: number, at: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('public_id')
      .execute();
    return rows.map((row) => row.public_id);
  }

  async countLive(userId: number, now: string): Promise<number> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number | string>().as('live'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    return Number(row.live);
  }

  async recordUse(uses: ReadonlyArray<{ id: number; at: string }>): Promise<void> {
    for (const use of uses) {
      await this.db.updateTable('api_tokens').set({ last_used_at: use.at }).where('id', '=', use.id).execute();
    }
  }
}
