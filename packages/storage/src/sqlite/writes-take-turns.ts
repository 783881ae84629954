/**
 * The request thread's writes outside a transaction take their turn at the write lock as its
 * transactions do (`takeTurn`). Left to SQLite's busy handler, which sleeps on the thread, such a
 * write stopped every request for as long as the background thread's transaction ran: a token's
 * last use, written during an import chunk, stalled the server for 0.9 s. The writes found then
 * were moved into transactions; this makes the turn hold for any write kysely sends, so a new one
 * cannot bring the stall back.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { takeTurn, type WriterTurns } from '../transaction-turns.ts';

/** Whether a statement, sent now, would write outside a transaction (CachedStatementDatabase). */
export interface AutocommitWrites {
  writesOutsideTransaction(sql: string): boolean;
}

/** `dialect`, its connection's writes outside a transaction each waiting for their turn first. */
export function writesTakingTurns(dialect: Dialect, database: AutocommitWrites, turns: WriterTurns): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new TurnTakingDriver(dialect.createDriver(), database, turns),
  };
}

class TurnTakingDriver implements Driver {
  private connection: DatabaseConnection | undefined;

  constructor(
    private readonly inner: Driver,
    private readonly database: AutocommitWrites,
    private readonly turns: WriterTurns,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    // SQLite's driver has the one connection: wrapped once, handed out under the driver's own lock
    this.connection ??= {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
        this.database.writesOutsideTransaction(query.sql)
          ? takeTurn(this.turns, () => connection.executeQuery<R>(query))
          : connection.executeQuery<R>(query),
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
