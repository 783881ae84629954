/**
 * People with names a picker is searched by: the 1 M-assignment data set's users are all "User n",
 * which a name fragment either misses or finds by the thousand. The console benchmark adds
 * `count` people named from first names and surnames (so "mar" or "okafor" finds a realistic
 * crowd) on top of them, written straight to the table; the search index follows through its
 * triggers (SQLite) or indexes (PostgreSQL), as it does for every user the API creates.
 */
import { sql } from 'kysely';
import { randomIds } from '@lectern/core';
import { foldCase } from '@lectern/core/ports';
import type { BenchDatabase } from './_database.ts';

const FIRST = ['Margaret', 'Ada', 'Grace', 'Alan', 'Katherine', 'Dorothy', 'Edsger', 'Barbara', 'Donald', 'Frances'];
const MORE_FIRST = ['Radia', 'Tim', 'Hedy', 'John', 'Mary', 'Annie', 'Claude', 'Joan', 'Linus', 'Sophie'];
const LAST = ['Okafor', 'Hamilton', 'Lovelace', 'Hopper', 'Turing', 'Johnson', 'Vaughan', 'Dijkstra', 'Liskov', 'Knuth'];
const MORE_LAST = ['Allen', 'Perlman', 'Berners-Lee', 'Lamarr', 'Backus', 'Easley', 'Shannon', 'Clarke', 'Torvalds', 'Wilson'];
const FIRST_NAMES = [...FIRST, ...MORE_FIRST];
const LAST_NAMES = [...LAST, ...MORE_LAST];

/** The name fragments the benchmark types: common and rare, first names, surnames and emails. */
export const FRAGMENTS = ['marg', 'okafor', 'ada lo', 'hopper 12', 'grace', 'dijk', 'lamarr 4', 'torv', 'ann', 'shannon 77'];

export async function addPeople(database: BenchDatabase, count: number): Promise<void> {
  const storage = await database.open();
  const db = storage.db;
  const joined = new Date(Date.UTC(2025, 6, 1)).toISOString();
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 1_000) {
      const rows = [];
      for (let i = start; i < Math.min(start + 1_000, count); i++) {
        const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
        const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]!;
        const name = `${first} ${last} ${Math.floor(i / (FIRST_NAMES.length * LAST_NAMES.length))}`;
        const email = `${first}.${last}.${i}@people.example.com`.toLowerCase();
        rows.push({
          public_id: randomIds.uuid(),
          email,
          email_lower: email,
          name,
          name_folded: foldCase(name),
          role: 'user',
          employee_id: null,
          is_active: 1,
          manager_id: null,
          date_joined: joined,
          modified: joined,
        });
      }
      await trx.insertInto('users').values(rows).execute();
    }
  });
  // PostgreSQL plans from statistics: an operator analyzes after a bulk load
  if (database.dialect === 'postgres') await sql`analyze users`.execute(db);
  await storage.close();
}
