import type { ApiTokenRecord } from '../auth/api-token.ts';
import type { Role, Scope } from '../auth/scopes.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';

export interface NewTokenRow {
  publicId: string;
  userId: number;
  name: string;
  tokenHash: string;
  tokenPrefix: string;
  scopes: Scope[];
  expiresAt: string | null;
  created: string;
}

/** What authentication needs, read in one indexed lookup by hash. */
export interface TokenCredentials {
  tokenId: number;
  scopes: Scope[];
  expiresAt: string | null;
  user: { id: number; publicId: string; role: Role; isActive: boolean };
}

export interface TokenStore {
  insert(row: NewTokenRow): Promise<ApiTokenRecord>;
  /** Tokens that are not revoked. */
  findByPublicId(publicId: string): Promise<ApiTokenRecord | undefined>;
  findById(id: number): Promise<ApiTokenRecord | undefined>;
  /** Every authenticated request asks: a store that can answer at once (SQLite) returns the value itself. */
  findCredentials(tokenHash: string): TokenCredentials | undefined | Promise<TokenCredentials | undefined>;
  /** The same by internal id, for work that outlives the request (a bulk job re-checks its token). */
  findCredentialsById(tokenId: number): Promise<TokenCredentials | undefined>;
  /** `ownerId` null lists every user's tokens. */
  list(query: ListQuery, ownerId: number | null): Promise<Page<ApiTokenRecord>>;
  revoke(id: number, at: string): Promise<void>;
  /** A revoked token's owner and revocation time (`findByPublicId` answers only tokens still in force). */
  findRevoked(publicId: string): Promise<{ userId: number; revokedAt: string } | undefined>;
  /** Revokes every live token of the user (API tokens and console sessions alike); answers their public ids. */
  revokeAllOfUser(userId: number, at: string): Promise<string[]>;
  /** The user's tokens neither revoked nor expired at `now`. */
  countLive(userId: number, now: string): Promise<number>;
  recordUse(uses: ReadonlyArray<{ id: number; at: string }>): Promise<void>;
}
