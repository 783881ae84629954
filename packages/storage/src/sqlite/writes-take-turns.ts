/**
 * How each thread's statements meet the turns at SQLite's one write lock (transaction-turns.ts).
 *
 * The request thread's writes outside a transaction take their turn as its transactions do
 * (`takeTurn`). Left to SQLite's busy handler, which sleeps on the thread, such a write stopped
 * every request for as long as the background thread's transaction ran: a token's last use,
 * written during an import chunk, stalled the server for 0.9 s. The writes found then were moved
 * into transactions; this makes the turn hold for any write kysely sends, so a new one cannot
 * bring the stall back.
 *
 * The background thread's statements inside `GivingWay.run` stop as soon as one of the request
 * thread's writes waits (`GivingWay`).
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { requestsWaiting, takeTurn, type GivesWay, type WriterTurns } from '../transaction-turns.ts';

/** Whether a statement, sent now, would write outside a transaction (CachedStatementDatabase). */
export interface AutocommitWrites {
  writesOutsideTransaction(sql: string): boolean;
}

/** `dialect`, its connection's writes outside a transaction each waiting for their turn first. */
export function writesTakingTurns(dialect: Dialect, database: AutocommitWrites, turns: WriterTurns): Dialect {
  return intercepting(dialect, (query, execute) => (database.writesOutsideTransaction(query.sql) ? takeTurn(turns, execute) : execute()));
}

/** Thrown at a statement of `GivingWay.run`'s work once a request's write waits; never seen by its caller. */
class GaveWay extends Error {}

/** The statements that open, undo and close savepoints, which must run for the work to unwind. */
const SAVEPOINT_STATEMENT = /^\s*(savepoint|release|rollback)\b/i;

/**
 * The background thread's way of letting a request's write go first in the middle of long work
 * (an import chunk's batch): while `run`'s work runs, its next statement after one of the request
 * thread's transactions counted itself in (`requestsWaiting`) throws instead, and so
 * does every statement after it until the work ends, except the savepoint statements that unwind
 * it. The work runs in a savepoint, rolled back then, so nothing it wrote or decided survives: an
 * error it caught and took for a refusal (a batch that failed as a whole, say) is undone with the
 * rest, since the statement that follows throws again.
 */
export class GivingWay implements GivesWay {
  private state: 'off' | 'on' | 'stopped' = 'off';

  constructor(private readonly turns: WriterTurns) {}

  /** The dialect whose statements `run` may stop. */
  dialect(dialect: Dialect): Dialect {
    return intercepting(dialect, (query, execute) => {
      if (this.state !== 'off' && !SAVEPOINT_STATEMENT.test(query.sql)) {
        if (this.state === 'stopped' || requestsWaiting(this.turns)) {
          this.state = 'stopped';
          throw new GaveWay('a request waits for the write lock');
        }
      }
      return execute();
    });
  }

  /** Read through a call, since `run` sets the state before awaiting work that changes it. */
  private hasStopped(): boolean {
    return this.state === 'stopped';
  }

  /** SQLite has one connection, so nothing but `work` runs statements meanwhile. */
  async run<S, T>(savepoint: (work: (sp: S) => Promise<T>) => Promise<T>, work: (sp: S) => Promise<T>): Promise<{ value: T } | undefined> {
    try {
      const value = await savepoint(async (sp) => {
        this.state = 'on';
        try {
          const value = await work(sp);
          // work that swallowed the throw and issued no statement after it
          if (this.hasStopped()) throw new GaveWay('a request waits for the write lock');
          return value;
        } finally {
          this.state = 'off';
        }
      });
      return { value };
    } catch (error) {
      if (error instanceof GaveWay) return undefined;
      throw error;
    }
  }
}

/** `dialect` with each statement of its connection sent through `around`. */
function intercepting(
  dialect: Dialect,
  around: (query: CompiledQuery, execute: () => Promise<QueryResult<unknown>>) => Promise<QueryResult<unknown>>,
): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new InterceptingDriver(dialect.createDriver(), around),
  };
}

class InterceptingDriver implements Driver {
  private connection: DatabaseConnection | undefined;

  constructor(
    private readonly inner: Driver,
    private readonly around: (query: CompiledQuery, execute: () => Promise<QueryResult<unknown>>) => Promise<QueryResult<unknown>>,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    // SQLite's driver has the one connection: wrapped once, handed out under the driver's own lock
    this.connection ??= {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
        this.around(query, () => connection.executeQuery(query)) as Promise<QueryResult<R>>,
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
    };
    return this.connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.inner.releaseSavepoint!(connection, name, compile);

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
