import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../shared/dialect.ts';
import type { Database } from '../schema.ts';

/**
 * Before an import chunk on PostgreSQL, whose reads are all lookups by key (rows by id, users by
 * email, counts by event) in tables the import itself is filling: analyzes each table it looks
 * rows up in that changed by at least as many rows as its statistics say it holds (grown to
 * double, for an import), as autovacuum would at a tenth but without its wait, a few times an
 * import, each a sample of the table.
 *
 * PostgreSQL plans from statistics that autovacuum refreshes a minute apart at best, so a table
 * that had a thousand rows when the import began is still planned as one while it grows to a
 * hundred thousand: the lookups are then read with sequential scans, hash joins and merge joins
 * over whole tables, each a read of the table per batch of rows.
 *
 * Run outside the chunk's transaction: ANALYZE takes no lock that stops other writers, but inside
 * the chunk it ran while the chunk held the write lock, and a write waited for it whole (a
 * statement cannot give way part-way), up to a second on a grown table. An import starts it with
 * `analyzeGrownTablesBeside`, which does not wait for it.
 */
export async function analyzeGrownTables(db: Kysely<Database>): Promise<void> {
  if (!dialectOf(db).plannerStatistics) return;
  const { rows } = await sql<{ relname: string }>`
    select s.relname from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema() and s.relname in (${sql.join(LOOKED_UP)})
      and s.n_mod_since_analyze >= greatest(${STALE_AFTER_ROWS}, c.reltuples)`.execute(db);
  for (const { relname } of rows) await sql`analyze ${sql.id(relname)}`.execute(db);
}

/** The analysis `analyzeGrownTablesBeside` started and that has not ended, per database. */
const analyzing = new WeakMap<Kysely<Database>, Promise<void>>();

/**
 * `analyzeGrownTables` on a connection of its own while the import's chunks go on, one analysis
 * at a time: a chunk waited for it, and the ANALYZE of each table an import grew to double cost
 * 0.1 to 0.4 s (a sample of up to 30 000 rows) a few times an import, some tenths of an import
 * that wrote into empty tables, such as enrollments imported into a database with no assignments.
 * The chunks that run meanwhile plan from the older statistics, which preferIndexLookups keeps
 * from scans; the next chunks have the new ones. A failed analysis is left for the next chunk's
 * look (the database may be closing).
 */
export function analyzeGrownTablesBeside(db: Kysely<Database>): void {
  if (!dialectOf(db).plannerStatistics || analyzing.has(db)) return;
  analyzing.set(
    db,
    analyzeGrownTables(db)
      .catch(() => undefined)
      .finally(() => analyzing.delete(db)),
  );
}

/**
 * Readies an import chunk's transaction on PostgreSQL (after analyzeGrownTables):
 * - turns sequential and bitmap scans off for the rest of its transaction. Bitmap scans go because
 *   the trigram search index on users' emails is read only through them, and while an import fills
 *   that index's pending list, each such read reads the whole list;
 * - turns merge and hash joins off: a batch joins its few hundred rows to the tables they name,
 *   which a nested loop of index probes does in time bounded by the batch, while a merge or hash
 *   join reads the other table from its start for as far as the statistics say the keys go. The
 *   assignments an enrollments batch wrote, read back with their users, were merge-joined with
 *   users read in id order from the first: up to the whole table for each batch, once a million
 *   assignments of fewer users had left statistics that put every user id near the start;
 * - plans without parallel workers: for a few hundred keys, starting and stopping them costs more
 *   than the reads (a batch's enrollments read back by id were seen waiting on both).
 *
 * SQLite gathers no statistics (docs/scaling.md) and needs none of it.
 */
export async function preferIndexLookups(db: Kysely<Database>): Promise<void> {
  if (!dialectOf(db).plannerStatistics) return;
  await sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
    set_config('enable_mergejoin', 'off', true), set_config('enable_hashjoin', 'off', true),
    set_config('max_parallel_workers_per_gather', '0', true)`.execute(db);
}

/**
 * The tables a chunk looks rows up in. Tables it only writes to are left to autovacuum: the audit
 * log's staging table, emptied as fast as it fills, would be analyzed in every chunk.
 */
const LOOKED_UP = ['users', 'assignments', 'enrollments', 'import_rows', 'import_results'];

/** Changes a table takes before its statistics count as stale, however small it was. */
const STALE_AFTER_ROWS = 1000;
