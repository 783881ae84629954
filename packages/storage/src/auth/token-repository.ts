import type { Kysely } from 'kysely';
import type { ApiTokenRecord, ListQuery, NewTokenRow, Page, Role, Scope, TokenCredentials, TokenStore } from '@lectern/core';
import type { Database } from '../schema.ts';
import { preparedQuery } from '../shared/prepared-query.ts';
import { applyFilters, fetchPage, toBool, type ListDefinition } from '../shared/list-builder.ts';

interface TokenRow {
  id: number;
  user_id: number;
  public_id: string;
  name: string;
  token_prefix: string;
  scopes: string;
  expires_at: string | null;
  created: string;
  last_used_at: string | null;
  user_public_id: string;
  user_name: string;
  user_email: string;
}

const tokenListDefinition: ListDefinition = {
  filters: {
    user: (eb, value) => eb('u.public_id', '=', value),
  },
  ranges: { created: 't.created' },
  ordering: { name: 't.name', created: 't.created', expires_at: 't.expires_at', last_used_at: 't.last_used_at' },
  tiebreak: 't.id',
};

const tokenColumns = [
  't.id',
  't.user_id',
  't.public_id',
  't.name',
  't.token_prefix',
  't.scopes',
  't.expires_at',
  't.created',
  't.last_used_at',
  'u.public_id as user_public_id',
  'u.name as user_name',
  'u.email as user_email',
] as const;

function toTokenRecord(row: TokenRow): ApiTokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    view: {
      public_id: row.public_id,
      name: row.name,
      token_prefix: row.token_prefix,
      scopes: JSON.parse(row.scopes) as Scope[],
      expires_at: row.expires_at,
      created: row.created,
      last_used_at: row.last_used_at,
      user: { public_id: row.user_public_id, name: row.user_name, email: row.user_email },
    },
  };
}

interface CredentialsRow {
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
const credentialsByHash = preparedQuery<CredentialsRow>(1, (db: Kysely<Database>, tokenHash) =>
  credentialsQuery(db).where('t.token_hash', '=', tokenHash!),
);

function toCredentials(row: CredentialsRow): TokenCredentials {
  return {
    tokenId: row.id,
    scopes: JSON.parse(row.scopes) as Scope[],
    expiresAt: row.expires_at,
    user: { id: row.user_id, publicId: row.public_id, role: row.role as Role, isActive: toBool(row.is_active) },
  };
}

export class TokenRepository implements TokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  private activeTokens() {
    return this.db.selectFrom('api_tokens as t').innerJoin('users as u', 'u.id', 't.user_id').where('t.revoked_at', 'is', null);
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
    const row = await this.activeTokens().select(tokenColumns).where('t.public_id', '=', publicId).executeTakeFirst();
    return row ? toTokenRecord(row) : undefined;
  }

  async findById(id: number): Promise<ApiTokenRecord | undefined> {
    const row = await this.activeTokens().select(tokenColumns).where('t.id', '=', id).executeTakeFirst();
    return row ? toTokenRecord(row) : undefined;
  }

  async findCredentials(tokenHash: string): Promise<TokenCredentials | undefined> {
    const [row] = await credentialsByHash(this.db, tokenHash);
    return row ? toCredentials(row) : undefined;
  }

  async findCredentialsById(tokenId: number): Promise<TokenCredentials | undefined> {
    const row = await credentialsQuery(this.db).where('t.id', '=', tokenId).executeTakeFirst();
    return row ? toCredentials(row) : undefined;
  }

  async list(query: ListQuery, ownerId: number | null): Promise<Page<ApiTokenRecord>> {
    let filtered = this.activeTokens();
    if (ownerId !== null) filtered = filtered.where('t.user_id', '=', ownerId);
    filtered = applyFilters(filtered, query, tokenListDefinition);
    const { rows, total } = await fetchPage<TokenRow>(filtered, query, tokenListDefinition, (q) => q.select(tokenColumns));
    return { total, items: rows.map(toTokenRecord) };
  }

  async revoke(id: number, at: string): Promise<void> {
    await this.db.updateTable('api_tokens').set({ revoked_at: at }).where('id', '=', id).execute();
  }

  async recordUse(uses: ReadonlyArray<{ id: number; at: string }>): Promise<void> {
    for (const use of uses) {
      await this.db.updateTable('api_tokens').set({ last_used_at: use.at }).where('id', '=', use.id).execute();
    }
  }
}
