import type { Kysely } from 'kysely';
import type { NewOidcRequestRow, OidcRequestStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';

export class OidcRequestRepository implements OidcRequestStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewOidcRequestRow): Promise<void> {
    await this.db
      .insertInto('oidc_requests')
      .values({
        state_hash: row.stateHash,
        nonce: row.nonce,
        code_verifier: row.codeVerifier,
        created: row.created,
        expires_at: row.expiresAt,
      })
      .execute();
  }

  async take(stateHash: string, now: string): Promise<{ nonce: string; codeVerifier: string } | undefined> {
    // one DELETE … RETURNING: of two callbacks racing with one state (two instances), one gets it
    const row = await this.db
      .deleteFrom('oidc_requests')
      .where('state_hash', '=', stateHash)
      .where('expires_at', '>', now)
      .returning(['nonce', 'code_verifier'])
      .executeTakeFirst();
    return row ? { nonce: row.nonce, codeVerifier: row.code_verifier } : undefined;
  }

  async deleteExpired(before: string): Promise<void> {
    await this.db.deleteFrom('oidc_requests').where('expires_at', '<', before).execute();
  }
}
