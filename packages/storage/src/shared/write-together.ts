/**
 * Several writes that do not depend on each other, to different tables (or to rows no two of them
 * share), run as one statement on PostgreSQL: `WITH w0 AS (…), w1 AS (…) SELECT 1`, each write a
 * data-modifying query of the WITH, which PostgreSQL runs to completion whether or not it is read.
 * One round trip where each write took its own: a batch's kept counts are five or six writes. The
 * writes see the same snapshot, which is why none may read what another writes. SQLite runs them
 * one after another.
 */
import { sql, type Compilable, type Kysely, type OperationNodeSource } from 'kysely';
import type { Database } from '../schema.ts';
import { dialectOf } from './dialect.ts';

type Write = Compilable & OperationNodeSource & { execute(): Promise<unknown> };

export async function writeTogether(db: Kysely<Database>, writes: ReadonlyArray<Write | undefined>): Promise<void> {
  const present = writes.filter((write): write is Write => write !== undefined);
  if (present.length > 1 && dialectOf(db).writesInWith) {
    const queries = present.map((write, i) => sql`${sql.id(`w${i}`)} as (${write})`);
    await sql`with ${sql.join(queries)} select 1`.execute(db);
    return;
  }
  for (const write of present) await write.execute();
}
