/**
 * PostgreSQL: the same repositories and queries as SQLite, through kysely's PostgreSQL dialect on a
 * `pg` pool. The schema keeps SQLite's column types (text timestamps, 0/1 integers for booleans),
 * so every row reads back identically on both databases.
 */
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { CopyIn } from './copy-in.ts';
import { coalescedLookups } from './coalesced-lookups.ts';
import { KyselyStorage, migrateToLatest } from '../kysely-storage.ts';
import { allowLoneReads } from '../shared/prepared-query.ts';
import { PostgresWakeUps } from './postgres-wake-ups.ts';
import { ExportCursors } from './export-cursor.ts';
import { allowHeldReads } from '../shared/held-reads.ts';
import type { DatabaseStats } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { writeLockWanted, type WriterTurns } from '../transaction-turns.ts';
import { GivingWay } from '../giving-way.ts';

export interface PostgresStorageOptions {
  /** `postgres://user@host:port/database` (or `postgresql://`) */
  url: string;
  /** connections the process keeps to the server at most */
  poolSize?: number;
  /** where the longest transaction is kept, shared by a server's threads (KyselyStorage) */
  longestTransaction?: Int32Array;
  /**
   * how this process's request thread (`first`) tells its background thread (`after`) that one of
   * its transactions waits for the write lock (`countIn` in transaction-turns.ts; `counter` has
   * WRITER_TURNS_SLOTS elements), so that the background thread's long work gives way part-way
   * (giving-way.ts)
   */
  writerTurns?: Omit<WriterTurns, 'waitMs'>;
}

export const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);

/** The URL without its password, for logs and messages. */
export function describePostgresUrl(target: string): string {
  const url = new URL(target);
  url.password = '';
  return url.toString();
}

/**
 * `pg`, loaded with the first connection rather than at start: merely loading it set up Node's
 * fetch (pg looks for Cloudflare's runtime by building a Response), a tenth of the start of a
 * server that uses SQLite. It is an optional peer dependency, so an application that only uses
 * SQLite does not install it. COUNT(*) and bigint columns arrive as text by default: counts are
 * numbers in the API, and stay far below 2^53.
 */
let driver: Promise<typeof pg> | undefined;
const loadDriver = () =>
  (driver ??= import('pg').then(
    ({ default: loaded }) => {
      loaded.types.setTypeParser(loaded.types.builtins.INT8, (value) => Number(value));
      loaded.types.setTypeParser(loaded.types.builtins.NUMERIC, (value) => Number(value));
      return loaded;
    },
    (error: unknown) => {
      driver = undefined;
      throw new Error('A postgres:// database needs the pg package beside @lectern/storage: npm install pg', { cause: error });
    },
  ));

const LOCK_TIMEOUT_MS = 5000;
const DEFAULT_POOL_SIZE = 10;

/**
 * Of a pool of `max`, the connections transactions may hold at once: a third of the pool (at least
 * one connection) stays with reads outside transactions, so that a request's lookups find a
 * connection while imports, jobs and writers queue for the write lock (docs/scaling.md).
 */
export const transactionSlots = (max: number): number => Math.max(1, max - Math.max(1, Math.ceil(max / 3)));
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Exports that may read through a cursor at once, each on a connection of its own beside the pool
 * (export-cursor.ts): a fifth of the pool, at least one. Further exports read keyset batches.
 */
export const exportCursorLimit = (max: number): number => Math.max(1, Math.ceil(max / 5));

/**
 * PostgreSQL's JIT compiles a query whose estimated cost passes `jit_above_cost`, which costs 100 to
 * 150 ms before the query runs: a learner's list of 100 000 content items took 146 ms with it and
 * 23 ms without. Lectern's queries are short, so its sessions turn JIT off; `options` given in the
 * URL come first and are kept.
 */
export function sessionOptions(url: string): string {
  const given = new URL(url).searchParams.get('options');
  return [given, '-c jit=off'].filter(Boolean).join(' ');
}

function withoutOptions(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('options')) return url;
  parsed.searchParams.delete('options');
  return parsed.toString();
}

/** A pool on the database, as every connection of the adapter is configured; not migrated. */
export function openPostgres(options: PostgresStorageOptions, givingWay?: GivingWay): Kysely<Database> {
  // a lock held elsewhere for longer than SQLite's busy timeout fails the statement (55P03) rather
  // than hanging the request: the API answers 503 with Retry-After, as it does on SQLite
  let opened: pg.Pool | undefined;
  const max = options.poolSize ?? DEFAULT_POOL_SIZE;
  let creating: Promise<pg.Pool> | undefined;
  const settings = {
    // pg lets the URL's parameters win over the pool's: its options travel in `options` instead
    connectionString: withoutOptions(options.url),
    lock_timeout: LOCK_TIMEOUT_MS,
    // a request waiting this long for a free connection fails instead of hanging
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: sessionOptions(options.url),
  };
  const pool = () => (creating ??= loadDriver().then((loaded) => (opened = new loaded.Pool({ ...settings, max }))));
  // kysely's streaming slot runs COPY … FROM STDIN on a transaction's own connection (copy-in.ts)
  const dialect = new PostgresDialect({ pool, cursor: CopyIn as never });
  const db = new Kysely<Database>({ dialect: givingWay?.dialect(dialect) ?? dialect });
  const named = namedStatements();
  const run = (text: string, values: readonly unknown[]) =>
    pool()
      .then((ready) => ready.query({ name: named(text), text, values: values as unknown[] }))
      .then((result) => result.rows as Record<string, unknown>[]);
  const lookups = coalescedLookups(pool, run);
  allowLoneReads(db, (text, values, firstOnly) => (firstOnly ? lookups(text, values) : run(text, values)), { pages: true });
  connectionsOutsideThePool.set(db, async () => {
    const client = new (await loadDriver()).Client(settings);
    await client.connect();
    return client;
  });
  poolFigures.set(db, () => ({ max, total: opened?.totalCount ?? 0, idle: opened?.idleCount ?? 0, waiting: opened?.waitingCount ?? 0 }));
  return db;
}

const MAX_NAMED_STATEMENTS = 500;

/**
 * Names for the lone reads' SQL (shared/prepared-query.ts: the prepared queries and list pages),
 * one per text. A named statement is parsed and planned once per connection, then each run sends
 * only its values; through kysely every run sent its text to be parsed and planned again, and went
 * through kysely's executor and connection handling, which cost Lectern more CPU than the lookup
 * cost the server. pg refuses a name reused for another text on a connection, so names are never
 * reused: past the bound (a list's text differs with its filters and order, a report's with its
 * expression), texts beyond it run unnamed.
 */
function namedStatements(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) names.set(text, (name = `lectern_${names.size + 1}`));
    return name;
  };
}

/** A connection of its own, configured as the pool's are, for each database openPostgres made. */
const connectionsOutsideThePool = new WeakMap<Kysely<Database>, () => Promise<pg.Client>>();

/** The pool behind each database openPostgres made, read for the metrics endpoint. */
const poolFigures = new WeakMap<Kysely<Database>, () => NonNullable<DatabaseStats['pool']>>();

/**
 * Connects and migrates to the current schema. Several processes starting together migrate once:
 * kysely's migrator holds a PostgreSQL advisory lock while it runs.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<KyselyStorage> {
  const writerTurns = options.writerTurns && { ...options.writerTurns, waitMs: LOCK_TIMEOUT_MS };
  const givingWay = writerTurns?.role === 'after' ? new GivingWay(writerTurns) : undefined;
  const db = openPostgres(options, givingWay);
  // other servers on the database share no counter with this one: their writes are seen in pg_locks
  givingWay?.seeOtherServers(() => writeLockWanted(db));
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const poolStats = poolFigures.get(db);
  const wakeUps = new PostgresWakeUps(connectionsOutsideThePool.get(db)!);
  const exportCursors = new ExportCursors(connectionsOutsideThePool.get(db)!, exportCursorLimit(options.poolSize ?? DEFAULT_POOL_SIZE));
  allowHeldReads(db, exportCursors.openCursor);
  return new KyselyStorage(db, {
    shared: true,
    wakeUps,
    exportCursors,
    transactionSlots: transactionSlots(options.poolSize ?? DEFAULT_POOL_SIZE),
    ...(writerTurns ? { writerTurns } : {}),
    ...(givingWay ? { givingWay } : {}),
    ...(poolStats ? { poolStats } : {}),
    ...(options.longestTransaction ? { longestTransaction: options.longestTransaction } : {}),
  });
}

/** Creates or upgrades the schema and disconnects; returns the migrations applied. */
export async function migratePostgres(options: PostgresStorageOptions): Promise<string[]> {
  const db = openPostgres(options);
  try {
    return await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
