/**
 * The core's Storage port over any kysely database. Only the dialect differs between SQLite and
 * (later) PostgreSQL; the repositories and their queries are shared.
 */
import { Migrator, sql, type Kysely } from 'kysely';
import { dialectOf } from './shared/dialect.ts';
import { WRITE_LOCK_KEY } from './write-lock-key.ts';
import { countIn, keepLongest, requestsWaiting, takeTurn, writeLockWanted, type GivesWay, type WriterTurns } from './transaction-turns.ts';
import type { Storage, Stores } from '@lectern/core';
import type { DatabaseStats, RateCounterStore, TransactionOptions, WakeUps } from '@lectern/core/ports';
import { AssignmentRepository } from './assignments/assignment-repository.ts';
import { AuditRepository } from './audit/audit-repository.ts';
import { TokenRepository } from './auth/token-repository.ts';
import { SignInLinkRepository } from './auth/sign-in-link-repository.ts';
import { CalendarRepository } from './calendars/calendar-repository.ts';
import { NotificationRepository } from './notifications/notification-repository.ts';
import { OidcRequestRepository } from './auth/oidc-request-repository.ts';
import { ChannelRepository } from './content/channel-repository.ts';
import { ContentRepository } from './content/content-repository.ts';
import { EnrollmentRepository } from './enrollments/enrollment-repository.ts';
import { EventRepository } from './events/event-repository.ts';
import { LocationRepository } from './events/location-repository.ts';
import { GroupRepository } from './groups/group-repository.ts';
import { ImportRepository } from './imports/import-repository.ts';
import { InsightRepository } from './insights/insight-repository.ts';
import { JobRepository } from './jobs/job-repository.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { UserRepository } from './users/user-repository.ts';
import { OutboxRepository } from './webhooks/outbox-repository.ts';
import { WebhookDeliveryRepository } from './webhooks/webhook-delivery-repository.ts';
import { WebhookEndpointRepository } from './webhooks/webhook-endpoint-repository.ts';
import { SavedReportRepository } from './reports/saved-report-repository.ts';
import { RateCounterRepository } from './rate-limits/rate-counter-repository.ts';
import { ScimRepository } from './scim/scim-repository.ts';

type Savepoint = Stores['savepoint'];

/** How often a PostgreSQL transaction is tried when the server broke a deadlock by failing it. */
const MAX_DEADLOCK_ATTEMPTS = 5;

/** The repositories over `db`; `savepoint` says how this level nests a unit of work. */
export function createStores(db: Kysely<Database>, savepoint: Savepoint): Stores {
  const content = new ContentRepository(db);
  return {
    users: new UserRepository(db),
    groups: new GroupRepository(db),
    tokens: new TokenRepository(db),
    outbox: new OutboxRepository(db),
    audit: new AuditRepository(db),
    content,
    channels: new ChannelRepository(db),
    assignments: new AssignmentRepository(db),
    jobs: new JobRepository(db),
    imports: new ImportRepository(db),
    insights: new InsightRepository(db),
    webhookEndpoints: new WebhookEndpointRepository(db),
    webhookDeliveries: new WebhookDeliveryRepository(db),
    events: new EventRepository(db, content),
    locations: new LocationRepository(db),
    enrollments: new EnrollmentRepository(db),
    savedReports: new SavedReportRepository(db),
    signInLinks: new SignInLinkRepository(db),
    calendars: new CalendarRepository(db),
    notifications: new NotificationRepository(db),
    oidcRequests: new OidcRequestRepository(db),
    scim: new ScimRepository(db),
    savepoint,
  };
}

/** The connection each transaction's stores run on, for what is asked of a transaction as a whole. */
const transactionConnections = new WeakMap<Stores, Kysely<Database>>();

/**
 * The stores of an open transaction at nesting `depth`. A savepoint is named by its depth: names
 * stay few (the statement cache keys on SQL text) and a nested savepoint never reuses an open one.
 */
function transactionStores(trx: Kysely<Database>, depth: number): Stores {
  const stores = createStores(trx, async (work) => {
    const name = `sp_${depth + 1}`;
    await sql.raw(`savepoint ${name}`).execute(trx);
    try {
      const result = await work(transactionStores(trx, depth + 1));
      await sql.raw(`release ${name}`).execute(trx);
      return result;
    } catch (error) {
      await sql.raw(`rollback to ${name}`).execute(trx);
      await sql.raw(`release ${name}`).execute(trx);
      throw error;
    }
  });
  transactionConnections.set(stores, trx);
  return stores;
}

export class KyselyStorage implements Storage {
  readonly users;
  readonly groups;
  readonly tokens;
  readonly outbox;
  readonly audit;
  readonly content;
  readonly channels;
  readonly assignments;
  readonly jobs;
  readonly imports;
  readonly insights;
  readonly webhookEndpoints;
  readonly webhookDeliveries;
  readonly events;
  readonly locations;
  readonly enrollments;
  readonly savedReports;
  readonly signInLinks;
  readonly calendars;
  /** PostgreSQL: what keeps a share of the pool for reads outside transactions */
  private readonly slots: Slots | undefined;
  readonly notifications;
  readonly oidcRequests;
  readonly scim;

  constructor(
    /** exposed for adapters' own maintenance work (backups, benchmarks); the core never sees it */
    readonly db: Kysely<Database>,
    private readonly options: {
      /**
       * several servers share the database (PostgreSQL): write transactions take turns through
       * one lock, and rate limits are counted in the database
       */
      shared?: boolean;
      /** the connection pool's figures, when there is one */
      poolStats?: () => DatabaseStats['pool'];
      /** other processes' work announced as it commits (PostgreSQL's LISTEN/NOTIFY) */
      wakeUps?: WakeUps & { close(): Promise<void> };
      /** PostgreSQL: the exports' cursors, ended when the storage closes (postgres/export-cursor.ts) */
      exportCursors?: { close(): Promise<void> };
      /**
       * With a second thread writing to the same database: see WriterTurns (SQLite) and `countIn`
       * (PostgreSQL)
       */
      writerTurns?: WriterTurns;
      /** the background thread: how its long work lets the request thread's writes go first */
      givingWay?: GivesWay;
      /** SQLite's background thread: the log's checkpoints, taken after its turns (checkpoints-between-turns.ts) */
      checkpoints?: { afterTurn(): void; close(): void };
      /**
       * Where the longest transaction since it was last taken is kept, in microseconds (one
       * element): a server's threads share it, so /metrics on the request thread sees the
       * background thread's import chunks too.
       */
      longestTransaction?: Int32Array;
      /**
       * PostgreSQL: transactions that may hold a pooled connection at once; the rest of the pool
       * is kept for reads outside transactions (a request's lookups). The write lock lets one
       * transaction run at a time anyway, and each one waiting for it would hold a connection.
       */
      transactionSlots?: number;
    } = {},
  ) {
    this.slots = options.transactionSlots === undefined ? undefined : new Slots(options.transactionSlots);
    this.longestTransaction = options.longestTransaction ?? new Int32Array(1);
    const stores = createStores(db, (work) => this.transaction(work));
    this.users = stores.users;
    this.groups = stores.groups;
    this.tokens = stores.tokens;
    this.outbox = stores.outbox;
    this.audit = stores.audit;
    this.content = stores.content;
    this.channels = stores.channels;
    this.assignments = stores.assignments;
    this.jobs = stores.jobs;
    this.imports = stores.imports;
    this.insights = stores.insights;
    this.webhookEndpoints = stores.webhookEndpoints;
    this.webhookDeliveries = stores.webhookDeliveries;
    this.events = stores.events;
    this.locations = stores.locations;
    this.enrollments = stores.enrollments;
    this.savedReports = stores.savedReports;
    this.signInLinks = stores.signInLinks;
    this.calendars = stores.calendars;
    this.notifications = stores.notifications;
    this.oidcRequests = stores.oidcRequests;
    this.scim = stores.scim;
  }

  /**
   * One unit of work. SQLite runs one writer at a time (BEGIN IMMEDIATE), so its transactions are
   * serial by nature. On PostgreSQL every transaction first takes one advisory lock, so they are
   * serial too, across every server: each rule the core checks inside a transaction (the last seat
   * of an event, the last active admin, create-or-get) holds as it does on SQLite, and outbox events
   * commit in the order of their sequence, which the webhook dispatcher's cursor relies on. Reads
   * outside transactions do not wait. A lock held longer than lock_timeout fails the work (55P03).
   *
   * `withoutWriteLock` (see TransactionOptions for when it is safe) skips the lock on PostgreSQL,
   * and with it the transaction slots: such work waits for no one, so like a read outside a
   * transaction it holds a pooled connection only while it runs.
   */
  async transaction<T>(work: (tx: Stores) => Promise<T>, options?: TransactionOptions): Promise<T> {
    const wait = this.timeTransaction();
    try {
      return await this.runTransaction(work, wait, options?.withoutWriteLock === true);
    } finally {
      wait.settle();
    }
  }

  private async runTransaction<T>(work: (tx: Stores) => Promise<T>, wait: { begun(): void }, unlocked: boolean): Promise<T> {
    if (!this.options.shared) return this.takingTurns(() => this.runSqliteTransaction(work, wait));
    if (unlocked) return this.runSharedTransaction(work, wait, true);
    const { writerTurns } = this.options;
    // counted in before the slot and the lock, so that the background thread's batch in progress
    // stops at its next statement rather than at its end
    return writerTurns ? countIn(writerTurns, () => this.runLockedTransaction(work, wait)) : this.runLockedTransaction(work, wait);
  }

  private async runLockedTransaction<T>(work: (tx: Stores) => Promise<T>, wait: { begun(): void }): Promise<T> {
    if (!this.slots) return this.runSharedTransaction(work, wait, false);
    await this.slots.take();
    try {
      return await this.runSharedTransaction(work, wait, false);
    } finally {
      this.slots.give();
    }
  }

  private async runSharedTransaction<T>(work: (tx: Stores) => Promise<T>, wait: { begun(): void }, unlocked: boolean): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          if (!unlocked) await sql`select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`.execute(trx);
          wait.begun();
          return work(transactionStores(trx, 0));
        });
      } catch (error) {
        // with one writer at a time a deadlock needs a row a writer outside the lock holds (a lease
        // claim, a transaction without the write lock); the server fails one side, which may
        // simply run again
        if ((error as { code?: unknown }).code !== '40P01' || attempt >= MAX_DEADLOCK_ATTEMPTS) throw error;
      }
    }
  }

  private takingTurns<T>(run: () => Promise<T>): Promise<T> {
    const { writerTurns, checkpoints } = this.options;
    if (!writerTurns) return run();
    const turn = takeTurn(writerTurns, run);
    return checkpoints ? turn.finally(() => checkpoints.afterTurn()) : turn;
  }

  private runSqliteTransaction<T>(work: (tx: Stores) => Promise<T>, wait: { begun(): void }): Promise<T> {
    return this.db.transaction().execute((trx) => {
      wait.begun();
      return work(transactionStores(trx, 0));
    });
  }

  private readonly stats = { transactions: 0, transactionsWaiting: 0, transactionWaitSeconds: 0 };
  private readonly longestTransaction: Int32Array;

  /**
   * Times one transaction: its wait to begin (for the connection, SQLite has one, PostgreSQL a
   * pool, and on PostgreSQL the write lock) and then how long it ran. A few additions per
   * transaction, nothing per query.
   */
  private timeTransaction(): { begun(): void; settle(): void } {
    const { stats, longestTransaction } = this;
    const asked = performance.now();
    let began: number | undefined;
    stats.transactionsWaiting++;
    const endWait = (at: number) => {
      stats.transactionsWaiting--;
      stats.transactionWaitSeconds += (at - asked) / 1000;
    };
    return {
      // a retried transaction (a deadlock on PostgreSQL) begins once as far as these figures go
      begun() {
        if (began !== undefined) return;
        began = performance.now();
        stats.transactions++;
        endWait(began);
      },
      settle() {
        if (began === undefined) endWait(performance.now());
        else keepLongest(longestTransaction, Math.round((performance.now() - began) * 1000));
      },
    };
  }

  writersWaiting(tx: Stores): boolean | Promise<boolean> {
    // this server's request thread, counted in before it reaches the lock (and on SQLite the only
    // other writer)
    const requests = requestsWaiting(this.options.writerTurns);
    if (requests || !this.options.shared) return requests;
    // any server's transaction, on the transaction's own connection: another from the pool could
    // be held by work that waits for this very transaction
    return writeLockWanted(transactionConnections.get(tx) ?? this.db);
  }

  giveWayToRequests<T>(tx: Stores, work: (sp: Stores) => Promise<T>): Promise<{ value: T } | undefined> {
    const { givingWay } = this.options;
    return givingWay ? givingWay.run((inner) => tx.savepoint(inner), work) : work(tx).then((value) => ({ value }));
  }
  commitsGrowWithWrites(): boolean {
    return dialectOf(this.db).commitWritesPages;
  }

  takeLongestTransactionSeconds(): number {
    return Atomics.exchange(this.longestTransaction, 0, 0) / 1e6;
  }

  databaseStats(): DatabaseStats {
    const pool = this.options.poolStats?.();
    return { ...this.stats, ...(pool ? { pool } : {}) };
  }

  /** Outside a transaction, a unit of work that must be atomic is simply a transaction. */
  savepoint<T>(work: (sp: Stores) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  private rateCounters: RateCounterRepository | undefined;

  sharedRateCounters(): RateCounterStore | null {
    if (!this.options.shared) return null;
    return (this.rateCounters ??= new RateCounterRepository(this.db));
  }

  async unavailableReason(): Promise<string | null> {
    try {
      const pending = await pendingMigrations(this.db);
      return pending.length === 0 ? null : `The database schema is behind this server: migrations not applied: ${pending.join(', ')}.`;
    } catch (error) {
      return `The database does not answer: ${(error as Error).message}`;
    }
  }

  wakeUps(): WakeUps | null {
    return this.options.wakeUps ?? null;
  }

  databaseKind(): 'sqlite' | 'postgres' {
    return dialectOf(this.db).kind;
  }

  async close(): Promise<void> {
    await this.options.wakeUps?.close();
    await this.options.exportCursors?.close();
    this.options.checkpoints?.close();
    await this.db.destroy();
  }
}

/** A counting semaphore: callers past `count` wait, in order, without holding anything. */
class Slots {
  private readonly waiting: Array<() => void> = [];
  constructor(private free: number) {}

  take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * Brings the schema up to date; safe to run from several processes at once. Returns the names of
 * the migrations this call applied (none when the schema was already current).
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  if (await isCurrent(db)) return [];
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const which = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Database migration${which} failed: ${String((error as Error).message ?? error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Whether the database has applied exactly the migrations this build knows: one read, where the
 * migrator looks up every table's columns before it finds there is nothing to do (a tenth of a
 * server's start). Anything else, a missing migration table included, is left to the migrator,
 * which takes its lock and applies or refuses.
 */
async function isCurrent(db: Kysely<Database>): Promise<boolean> {
  const known = Object.keys(await migrationProvider.getMigrations());
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === known.length && known.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

/** Migrations this build knows that the database has not applied. */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const migrations = await new Migrator({ db, provider: migrationProvider }).getMigrations();
  return migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
