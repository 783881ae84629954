/**
 * What differs between the two databases Lectern runs on, said once as flags (as kysely's own
 * adapter says `supportsReturning`), so code asks for the capability it depends on rather than
 * which database it is talking to. The one place that tells them apart is `dialectOf`.
 */
import { PostgresAdapter, type Kysely } from 'kysely';

export interface Dialect {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * An array can be bound as one parameter (typed by a cast) and read as rows with `unnest`, as a
   * batch's list of keys is (shared/values-list.ts); SQLite takes a VALUES list of bare values.
   */
  readonly arrayParameters: boolean;
  /** Internal ids are drawn from the identity column's sequence, never handed out twice. */
  readonly idSequences: boolean;
  /**
   * The planner works from statistics Lectern may refresh and steer (ANALYZE, `enable_*`),
   * and needs no index hints; SQLite gathers none and takes `INDEXED BY`.
   */
  readonly plannerStatistics: boolean;
  /** Searches read trigram indexes with LIKE, rather than an FTS5 table and `instr()`. */
  readonly trigramSearch: boolean;
  /** A transaction can announce its commit to other processes (`pg_notify`). */
  readonly commitNotifications: boolean;
  /** Many rows can be sent as one block of text (`COPY … FROM STDIN`, postgres/copy-in.ts). */
  readonly copyIn: boolean;
  /** A DELETE's RETURNING can feed an INSERT in the same statement (`WITH moved AS (DELETE …) INSERT …`). */
  readonly deleteFeedsInsert: boolean;
  /** Writes to different tables can run as one statement, each a query of its WITH (shared/write-together.ts). */
  readonly writesInWith: boolean;
  /**
   * COMMIT writes every page the transaction changed (into SQLite's log), so it takes longer the
   * more the transaction wrote; PostgreSQL wrote its log as the statements ran.
   */
  readonly commitWritesPages: boolean;
  /** A query can read a random share of a table's pages (`TABLESAMPLE SYSTEM`). */
  readonly sampledReads: boolean;
}

const sqlite: Dialect = {
  kind: 'sqlite',
  arrayParameters: false,
  idSequences: false,
  plannerStatistics: false,
  trigramSearch: false,
  commitNotifications: false,
  copyIn: false,
  deleteFeedsInsert: false,
  writesInWith: false,
  commitWritesPages: true,
  sampledReads: false,
};

const postgres: Dialect = {
  kind: 'postgres',
  arrayParameters: true,
  idSequences: true,
  plannerStatistics: true,
  trigramSearch: true,
  commitNotifications: true,
  copyIn: true,
  deleteFeedsInsert: true,
  writesInWith: true,
  commitWritesPages: false,
  sampledReads: true,
};

// any database's Kysely: the capabilities do not depend on its tables
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const dialectOf = (db: Kysely<any>): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? postgres : sqlite);
