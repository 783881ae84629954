/**
 * Seeds `count` users straight into the tables, 5 000 to a transaction, much faster than the API
 * would: names `User <i>`, emails `user<i>@example.com`, every tenth an organizer, every seventh
 * inactive. Returns the public ids of every 97th user, for reads by id.
 */
import { sql } from 'kysely';
import { createLectern, randomIds } from '@lectern/core';
import { benchDatabase, type BenchDatabase } from './_database.ts';

type Storage = Awaited<ReturnType<BenchDatabase['open']>>;

export async function seedUsers(storage: Storage, dialect: BenchDatabase['dialect'], count: number): Promise<string[]> {
  const sampled: string[] = [];
  for (let start = 0; start < count; start += 5_000) {
    await storage.db.transaction().execute(async (trx) => {
      const rows = [];
      for (let i = start; i < Math.min(count, start + 5_000); i++) {
        const publicId = randomIds.uuid();
        if (i % 97 === 0) sampled.push(publicId);
        const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
        rows.push({
          public_id: publicId,
          email: `user${i}@example.com`,
          email_lower: `user${i}@example.com`,
          name: `User ${i}`,
          name_folded: `user ${i}`,
          role: i % 10 === 0 ? 'organizer' : 'user',
          employee_id: `E${i}`,
          is_active: i % 7 === 0 ? 0 : 1,
          manager_id: null,
          date_joined: at,
          modified: at,
        });
      }
      for (let j = 0; j < rows.length; j += 500)
        await trx
          .insertInto('users')
          .values(rows.slice(j, j + 500))
          .execute();
    });
  }
  // without statistics PostgreSQL's plans, and so its figures, hang on whether autovacuum has
  // come by since the seeding
  if (dialect === 'postgres') await sql`vacuum (analyze)`.execute(storage.db);
  return sampled;
}

/**
 * A fresh benchmark database named `name` with `count` users and a bootstrap admin: what the
 * HTTP benchmarks start from. Returns the admin's token and the sampled user ids.
 */
export async function usersDatabase(name: string, count: number): Promise<{ database: BenchDatabase; token: string; ids: string[] }> {
  const database = await benchDatabase(name);
  const storage = await database.open();
  const lectern = createLectern({ storage });
  const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
  const seededAt = Date.now();
  const ids = await seedUsers(storage, database.dialect, count);
  await lectern.close();
  console.log(`seeded ${count} users in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
  return { database, token, ids };
}
