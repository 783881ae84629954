import type { Kysely } from 'kysely';
import type { NewSignInLinkRow, SignInLinkStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';

export class SignInLinkRepository implements SignInLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewSignInLinkRow): Promise<void> {
    await this.db
      .insertInto('sign_in_links')
      .values({ code_hash: row.codeHash, user_id: row.userId, created: row.created, expires_at: row.expiresAt, used_at: null })
      .execute();
  }

  async consume(codeHash: string, now: string): Promise<number | undefined> {
    // one conditional update: of two requests racing with one code, only the first finds it unused
    const row = await this.db
      .updateTable('sign_in_links')
      .set({ used_at: now })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async deleteExpired(before: string): Promise<void> {
    await this.db.deleteFrom('sign_in_links').where('expires_at', '<', before).execute();
  }
}
