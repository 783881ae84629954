/**
 * The storage port. The core reaches persistence only through these interfaces; @lectern/storage
 * implements them with kysely (SQLite now, PostgreSQL later), and an embedder may supply its own.
 */
import type { AssignmentStore } from './assignment-store.ts';
import type { AuditStore } from './audit-store.ts';
import type { ChannelStore } from './channel-store.ts';
import type { ContentStore } from './content-store.ts';
import type { EnrollmentStore } from './enrollment-store.ts';
import type { EventStore, LocationStore } from './event-store.ts';
import type { GroupStore } from './group-store.ts';
import type { InsightStore } from './insight-store.ts';
import type { ImportStore } from './import-store.ts';
import type { JobStore } from './job-store.ts';
import type { OutboxStore } from './outbox-store.ts';
import type { RateCounterStore } from './rate-counter-store.ts';
import type { SavedReportStore } from './saved-report-store.ts';
import type { CalendarStore } from './calendar-store.ts';
import type { NotificationStore } from './notification-store.ts';
import type { OidcRequestStore, SignInLinkStore } from './sign-in-link-store.ts';
import type { ScimStore } from './scim-store.ts';
import type { TokenStore } from './token-store.ts';
import type { UserStore } from './user-store.ts';
import type { WakeUps } from './wake-ups.ts';
import type { WebhookDeliveryStore, WebhookEndpointStore } from './webhook-store.ts';

export interface Stores {
  users: UserStore;
  groups: GroupStore;
  tokens: TokenStore;
  outbox: OutboxStore;
  /** the audit log, written in the transaction of each change beside the outbox */
  audit: AuditStore;
  content: ContentStore;
  channels: ChannelStore;
  assignments: AssignmentStore;
  jobs: JobStore;
  imports: ImportStore;
  insights: InsightStore;
  webhookEndpoints: WebhookEndpointStore;
  webhookDeliveries: WebhookDeliveryStore;
  events: EventStore;
  locations: LocationStore;
  enrollments: EnrollmentStore;
  savedReports: SavedReportStore;
  /** one-time console sign-in links (`lectern console-url`) */
  signInLinks: SignInLinkStore;
  /** personal calendar feeds and what they list */
  calendars: CalendarStore;
  /** the email queue */
  notifications: NotificationStore;
  /** console single sign-on requests waiting for the provider's answer */
  oidcRequests: OidcRequestStore;
  /** what SCIM provisioning keeps beside users and groups (external ids, deletions) */
  scim: ScimStore;
  /**
   * Runs `work` as a nested unit: when it throws, only its own writes are undone and the
   * surrounding transaction goes on (a synchronous batch item). Outside a transaction it is one.
   */
  savepoint<T>(work: (sp: Stores) => Promise<T>): Promise<T>;
}

/** What the database connections are doing, for the metrics endpoint: counted in memory, no query. */
export interface DatabaseStats {
  /** transactions begun since the storage opened */
  transactions: number;
  /** transactions asked for and not yet begun (waiting for the connection, the pool or the write lock) */
  transactionsWaiting: number;
  /** the time transactions spent waiting to begin, summed */
  transactionWaitSeconds: number;
  /** a connection pool (PostgreSQL): its size limit, open and idle connections, and requests waiting for one */
  pool?: { max: number; total: number; idle: number; waiting: number };
}

export interface TransactionOptions {
  /**
   * Run beside other writers instead of taking turns with them (PostgreSQL: without the write
   * lock; SQLite has one writer whatever this says). Only for work that checks no rule, appends no
   * outbox event or audit entry, and writes only rows no one else writes meanwhile: rows this
   * process holds by lease (a worker recording its own outcomes, guarded by the lease owner in the
   * UPDATE) or rows of something not yet visible to anyone else (an upload's staged rows). The
   * database's row locks are then all the order such work needs, across servers too; anything
   * that reads rows to decide what to write, or whose commit order matters, must leave this unset.
   * Two movers of committed rows are let off, both relying on writers taking ids and committing
   * one after another under the lock: the webhook dispatcher's pass (webhooks/delivery-dispatcher.ts),
   * which reads only committed outbox events and takes turns with other dispatchers on its cursor
   * row's lock; and the audit settle (audit/audit-service.ts), which moves the oldest committed
   * entries in one statement whose row locks keep two servers from moving a row twice.
   */
  withoutWriteLock?: boolean;
}

export interface Storage extends Stores {
  /**
   * Runs `work` in one database transaction: everything written through `tx`, including the
   * outbox events, commits together or not at all. Transactions are serialised per database,
   * unless `options.withoutWriteLock` says this one need not be.
   */
  transaction<T>(work: (tx: Stores) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Why the storage cannot serve requests right now (it does not answer, or its schema lacks
   * migrations this build expects), or null when it can. Readiness probes poll this: keep it cheap.
   */
  unavailableReason(): Promise<string | null>;
  /**
   * Counters several servers sharing this storage count requests in, or null when the storage
   * is one server's own (an embedded file), whose counters stay in memory.
   */
  sharedRateCounters(): RateCounterStore | null;
  /** Connection and transaction figures; optional for an embedder's own storage. */
  databaseStats?(): DatabaseStats;
  /**
   * The longest transaction (from its begin to its commit or rollback) that ended since the
   * previous call, in seconds, on every thread of the server that shares this storage's record of
   * it; the window then starts again. 0 when none ended.
   */
  takeLongestTransactionSeconds?(): number;
  /**
   * Whether another transaction waits for `tx`, the one in progress, to end: on SQLite one of the
   * request thread's, waiting for the background thread's; on PostgreSQL any server's, waiting
   * for the write lock. Long work such as an import chunk then commits what it has done and lets
   * it go first. Asked through `tx`, so that it needs no other connection than the one `tx` holds.
   */
  writersWaiting?(tx: Stores): boolean | Promise<boolean>;
  /**
   * Runs `work` within `tx` so that a write that comes to wait for `tx` may stop it part-way:
   * undefined then, with everything `work` wrote undone, and the caller commits what came before
   * and lets that write go first; otherwise what `work` answered. On a server's background thread
   * (SQLite or PostgreSQL) the same server's request thread's writes stop it at its next statement;
   * other servers' writes do not (`writersWaiting` sees them between batches); elsewhere it runs
   * to its end.
   */
  giveWayToRequests?<T>(tx: Stores, work: (sp: Stores) => Promise<T>): Promise<{ value: T } | undefined>;
  /**
   * Whether a commit takes longer the more its transaction wrote, so that a write waiting for long
   * work waits for its commit too (SQLite writes every changed page at COMMIT; PostgreSQL wrote its
   * log as the statements ran). Long work that meets writes then commits sooner.
   */
  commitsGrowWithWrites?(): boolean;
  /** Announcements of other processes' work, when the database carries them (ports/wake-ups.ts). */
  wakeUps?(): WakeUps | null;
  /** Which database this is, for the About page; an embedder's own storage may leave it out. */
  databaseKind?(): 'sqlite' | 'postgres';
  close(): Promise<void>;
}
