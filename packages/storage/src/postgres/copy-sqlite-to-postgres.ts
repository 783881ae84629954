/**
 * Moves a SQLite database into an empty PostgreSQL database (`lectern migrate-data`): both are
 * brought to the current schema, then every table's rows are copied as they are (the schema keeps
 * the same column types on both), parents before children, in one PostgreSQL transaction, so a
 * failure leaves the target as empty as it was.
 */
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../kysely-storage.ts';
import type { Database } from '../schema.ts';
import { migrateSqliteFile, openSqliteDatabase, type SqliteStorageOptions } from '../sqlite/open-sqlite-storage.ts';
import { openPostgres, type PostgresStorageOptions } from './open-postgres-storage.ts';
import { continueAuditIds } from '../audit/audit-repository.ts';

/** Rows per INSERT: well under PostgreSQL's 65 535 parameters for the widest table. */
const BATCH_ROWS = 500;

export interface CopiedTable {
  table: string;
  rows: number;
}

/** The target already holds data: copying into it would mix two databases. */
export class TargetNotEmptyError extends Error {
  constructor(readonly table: string) {
    super(`the target database is not empty: table ${table} has rows; migrate-data copies into an empty database only`);
  }
}

export async function copySqliteToPostgres(
  source: SqliteStorageOptions,
  target: PostgresStorageOptions,
  onTable: (copied: CopiedTable) => void = () => {},
): Promise<CopiedTable[]> {
  await migrateSqliteFile({ ...source, mustExist: true });
  const from = openSqliteDatabase({ ...source, mustExist: true });
  const to = openPostgres(target);
  try {
    await migrateToLatest(to);
    const { tables, selfReferences } = await tablesInCopyOrder(to);
    // one read transaction: a consistent snapshot even if something writes the file meanwhile
    from.exec('begin');
    const copied = await to.transaction().execute(async (trx) => {
      // empty means as the migrations left it: some tables start with a row (the dispatch cursor)
      const fresh = await rowsOfAFreshSchema(source);
      for (const table of tables) {
        if ((await countRows(trx, table)) !== (fresh.get(table) ?? 0)) throw new TargetNotEmptyError(table);
      }
      const done: CopiedTable[] = [];
      for (const table of [...tables].reverse()) await trx.deleteFrom(table as keyof Database).execute();
      for (const table of tables) {
        const rows = await copyTable(from, trx, table, selfReferences.get(table) ?? []);
        await resetIdentity(trx, table);
        const counted = await countRows(trx, table);
        if (counted !== rows) throw new Error(`table ${table}: copied ${rows} rows but the target counts ${counted}`);
        done.push({ table, rows });
        onTable({ table, rows });
      }
      await continueAuditIds(trx);
      return done;
    });
    from.exec('commit');
    return copied;
  } finally {
    from.close();
    await to.destroy();
  }
}

async function countRows(db: Kysely<Database>, table: string): Promise<number> {
  const [row] = (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows;
  return Number(row?.n ?? 0);
}

/** Rows per table of a database that has only been migrated, counted on a throwaway SQLite one. */
async function rowsOfAFreshSchema(source: SqliteStorageOptions): Promise<Map<string, number>> {
  // the source's options carry the addon the single executable loads
  const database = openSqliteDatabase({ ...source, file: ':memory:', mustExist: false });
  const fresh = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    await migrateToLatest(fresh);
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(fresh);
    const counts = new Map<string, number>();
    for (const { name } of rows) counts.set(name, await countRows(fresh, name));
    return counts;
  } finally {
    await fresh.destroy();
  }
}

/**
 * Copies one table. A column pointing into its own table (a user's manager) may name a row copied
 * later: it is copied as null, then set once every row is in.
 */
async function copyTable(
  from: ReturnType<typeof openSqliteDatabase>,
  to: Kysely<Database>,
  table: string,
  selfColumns: readonly string[],
): Promise<number> {
  let batch: Record<string, unknown>[] = [];
  let rows = 0;
  const later: Array<{ id: unknown; values: Record<string, unknown> }> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await to
      .insertInto(table as keyof Database)
      .values(batch as never)
      .execute();
    rows += batch.length;
    batch = [];
  };
  // table names come from PostgreSQL's catalogue of Lectern's own schema, never from input
  for (const row of from.prepare(`select * from "${table}"`).iterate() as Iterable<Record<string, unknown>>) {
    const values = Object.fromEntries(selfColumns.filter((column) => row[column] !== null).map((column) => [column, row[column]]));
    if (Object.keys(values).length > 0) later.push({ id: row.id, values });
    batch.push({ ...row, ...Object.fromEntries(Object.keys(values).map((column) => [column, null])) });
    if (batch.length === BATCH_ROWS) await flush();
  }
  await flush();
  for (const { id, values } of later) {
    await to
      .updateTable(table as keyof Database)
      .set(values as never)
      .where('id' as never, '=', id as never)
      .execute();
  }
  return rows;
}

/** New rows must not collide with copied ids: an identity column continues after the largest one. */
async function resetIdentity(trx: Kysely<Database>, table: string): Promise<void> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} and is_identity = 'YES'`.execute(trx);
  for (const { column_name: column } of rows) {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false)
      from ${sql.table(table)}`.execute(trx);
  }
}

/**
 * Lectern's tables on the target (the migrator's bookkeeping aside), each after every table its
 * foreign keys point to, so rows can be inserted with the constraints checked as they go; and the
 * columns of each table that point into the table itself.
 */
async function tablesInCopyOrder(db: Kysely<Database>): Promise<{ tables: string[]; selfReferences: Map<string, string[]> }> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  const { rows: references } = await sql<{ child: string; parent: string; column: string }>`
    select c.relname as child, p.relname as parent, a.attname as column
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any (k.conkey)
    where k.contype = 'f' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  const parents = new Map<string, string[]>();
  const selfReferences = new Map<string, string[]>();
  for (const { child, parent, column } of references) {
    if (child === parent) selfReferences.set(child, [...(selfReferences.get(child) ?? []), column]);
    else parents.set(child, [...(parents.get(child) ?? []), parent]);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: string[]) => {
    if (placed.has(table)) return;
    if (path.includes(table)) throw new Error(`foreign keys form a cycle: ${[...path, table].join(' → ')}`);
    for (const parent of parents.get(table) ?? []) place(parent, [...path, table]);
    placed.add(table);
    ordered.push(table);
  };
  for (const { name } of tables) place(name, []);
  return { tables: ordered, selfReferences };
}
