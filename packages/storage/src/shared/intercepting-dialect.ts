/**
 * A kysely dialect whose every statement goes through a function first: how a thread's writes
 * wait for their turn (sqlite/writes-take-turns.ts) and how long work gives way to a request's
 * write (giving-way.ts), on either database, without touching the queries that send them.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';

/** Runs one statement (`execute`), or throws instead, or waits first. */
export type AroundStatement = (query: CompiledQuery, execute: () => Promise<QueryResult<unknown>>) => Promise<QueryResult<unknown>>;

/** `dialect` with each statement of its connections sent through `around`. */
export function intercepting(dialect: Dialect, around: AroundStatement): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new InterceptingDriver(dialect.createDriver(), around),
  };
}

/**
 * A stream (PostgreSQL's COPY … FROM STDIN, postgres/copy-in.ts, a batch's rows) goes through
 * `around` as it opens: its rows are one statement, sent once it is read.
 */
async function* openedThrough<R>(around: AroundStatement, query: CompiledQuery, open: () => AsyncIterableIterator<QueryResult<R>>) {
  let stream: AsyncIterableIterator<QueryResult<R>> | undefined;
  await around(query, async () => {
    stream = open();
    return { rows: [] };
  });
  yield* stream!;
}

class InterceptingDriver implements Driver {
  /** each connection's wrapper, made once (SQLite's driver has one connection, a pool has several) */
  private readonly wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  /** the connection behind each wrapper, which the driver's own release needs */
  private readonly inners = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly around: AroundStatement,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrapped.get(connection);
    if (!wrapper) {
      wrapper = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          this.around(query, () => connection.executeQuery(query)) as Promise<QueryResult<R>>,
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
          openedThrough<R>(this.around, query, () => connection.streamQuery<R>(query, chunkSize)),
      };
      this.wrapped.set(connection, wrapper);
      this.inners.set(wrapper, connection);
    }
    return wrapper;
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
    return this.inner.releaseConnection(this.inners.get(connection) ?? connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
