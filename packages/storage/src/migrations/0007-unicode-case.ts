import { sql, type Kysely } from 'kysely';
import { foldCase } from '@lectern/core/ports';

/**
 * Case folding covers all of Unicode (core's foldCase: NFC, then lower case). Emails are unique
 * ignoring case through `users.email_lower`, which the repository keeps equal to foldCase(email);
 * rows written before this migration hold the old folding (lower case without NFC), so they are
 * folded again here. Should two existing emails now fold alike, the migration stops and names
 * them: which account to keep is the operator's decision, not the migration's.
 *
 * The unique index on lower(email) folded ASCII letters only; `ilike` on an email now compares
 * email_lower, whose own unique index serves it, so the old index is dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const users = await sql<{ id: number; email: string; email_lower: string }>`select id, email, email_lower from users`.execute(db);
  const byFolded = new Map<string, Array<{ id: number; email: string }>>();
  for (const user of users.rows) {
    const folded = foldCase(user.email);
    byFolded.set(folded, [...(byFolded.get(folded) ?? []), user]);
  }
  const clashes = [...byFolded.values()].filter((group) => group.length > 1);
  if (clashes.length > 0) {
    const listed = clashes.map((group) => group.map((user) => `${user.email} (id ${user.id})`).join(' = ')).join('; ');
    throw new Error(
      `These users' emails differ only in letter case, which Lectern now ignores for every letter; change all but one of each and run again: ${listed}`,
    );
  }
  for (const user of users.rows) {
    const folded = foldCase(user.email);
    if (folded !== user.email_lower) await sql`update users set email_lower = ${folded} where id = ${user.id}`.execute(db);
  }
  await db.schema.dropIndex('users_email_folded_idx').execute();
}
