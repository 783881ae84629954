/**
 * Read threads for SQLite: worker threads, each with a read-only connection of its own to the
 * database file, that run the statements handed to them (shared/offloaded-reads.ts). WAL lets them
 * read beside the request thread's writes; each sees the database as last committed.
 *
 * A worker thread loads a script file. The command-line program starts its own script again with
 * the role below in `workerData` (as its background thread does) and answers it with
 * runReadThread(); the tests start a small script of their own.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqliteDatabase } from './open-sqlite-storage.ts';
import { KeptByText } from './statement-cache.ts';
import { rowBuilder } from '../shared/row-builder.ts';
import type { RowPieces } from '../shared/offloaded-reads.ts';

const ROLE = 'lectern-read-thread';

/** Statements a read thread keeps prepared, by SQL text (a search's or an export's few shapes). */
const MAX_STATEMENTS = 200;

interface ReadThreadSettings {
  role: typeof ROLE;
  file: string;
}

type Request = { id: number; sql: string; parameters: readonly unknown[] };
/**
 * Rows cross as their column names and pieces of their values, an array a row: a piece as JSON
 * text when every value in it is one JSON gives back exactly (text, a finite number, null), else
 * as the arrays themselves (a blob, infinity). Measured on 500 exported assignments (33 columns), the
 * request thread spent 4.1 µs a row taking objects from a structured clone, 1.1 µs parsing JSON
 * arrays and building the objects; the read thread 3.0 µs serialising objects, 1.1 µs writing
 * the JSON.
 */
type Answer =
  | { id: number; columns: string[]; count: number; pieces: Array<string | unknown[][]> }
  | { id: number; error: { message: string; code?: string } };

/**
 * Rows a piece holds: the request thread makes the rows of a piece only when it takes them
 * (RowPieces), and a hundred rows' text stays well under the size V8 allocates apart.
 */
const PIECE_ROWS = 100;

/** Whether JSON gives every value back exactly: text, null, and finite numbers but minus zero. */
function survivesJson(values: readonly unknown[][]): boolean {
  for (const row of values) {
    for (const value of row) {
      if (typeof value === 'string' || value === null) continue;
      if (typeof value !== 'number' || !Number.isFinite(value) || (value === 0 && 1 / value < 0)) return false;
    }
  }
  return true;
}

/** A piece as it crosses: JSON text, or its values themselves when JSON would alter one of them. */
const pieceOf = (values: unknown[][]): string | unknown[][] => (survivesJson(values) ? JSON.stringify(values) : values);

/** The statement's rows, stepped through a piece at a time, so the thread holds one piece's values at most. */
function answerOf(id: number, statement: BetterSqlite3.Statement, parameters: readonly unknown[]): Answer {
  const columns = statement.columns().map((column) => column.name);
  const pieces: Array<string | unknown[][]> = [];
  let count = 0;
  let piece: unknown[][] = [];
  for (const values of statement.iterate(parameters) as Iterable<unknown[]>) {
    piece.push(values);
    if (piece.length === PIECE_ROWS) {
      pieces.push(pieceOf(piece));
      count += piece.length;
      piece = [];
    }
  }
  if (piece.length > 0) pieces.push(pieceOf(piece));
  return { id, columns, count: count + piece.length, pieces };
}

/** True, and the thread serving reads, when this thread was started as a read thread. */
export function runReadThread(): boolean {
  const settings = workerData as Partial<ReadThreadSettings> | null;
  if (isMainThread || !parentPort || settings?.role !== ROLE) return false;
  const port = parentPort;
  const db = openSqliteDatabase({ file: settings.file!, mustExist: true });
  db.pragma('query_only = 1');
  const statements = new KeptByText(MAX_STATEMENTS, (sql) => {
    const statement = db.prepare(sql);
    return statement.reader ? statement.raw(true) : statement;
  });
  port.on('message', ({ id, sql, parameters }: Request) => {
    let answer: Answer;
    try {
      answer = answerOf(id, statements.get(sql), parameters);
    } catch (error) {
      const { message, code } = error as Error & { code?: string };
      answer = { id, error: { message, ...(typeof code === 'string' ? { code } : {}) } };
    }
    port.postMessage(answer);
  });
  port.postMessage({ ready: true });
  return true;
}

/** Builds rows from their values as the request thread's own reads do, one builder per set of columns. */
type Builders = KeptByText<(values: unknown[]) => Record<string, unknown>>;

/** The builders a set of threads' answers share, by their columns as JSON (exact for any names). */
const newBuilders = (): Builders =>
  new KeptByText(MAX_STATEMENTS, (key) => {
    const columns = JSON.parse(key) as string[];
    // an object literal would set the prototype rather than a property of that name
    return columns.includes('__proto__') ? (row: unknown[]) => objectOf(columns, row) : rowBuilder(columns);
  });

function rowsFrom(builders: Builders, columns: string[], values: unknown[][]) {
  const build = builders.get(JSON.stringify(columns));
  const rows: unknown[] = Array.from({ length: values.length });
  for (let n = 0; n < values.length; n++) rows[n] = build(values[n]!);
  return rows;
}

/** A row's values as the driver reads them: a blob crosses as a Uint8Array, and is a Buffer again. */
const asRead = (values: unknown[]): unknown[] =>
  values.map((value) =>
    value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value,
  );

function objectOf(columns: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  columns.forEach((name, n) =>
    Object.defineProperty(row, name, { value: values[n], writable: true, enumerable: true, configurable: true }),
  );
  return row;
}

function piecesFrom(builders: Builders, columns: string[], count: number, pieces: Array<string | unknown[][]>): RowPieces {
  const valuesOf = (piece: string | unknown[][]) => (typeof piece === 'string' ? (JSON.parse(piece) as unknown[][]) : piece.map(asRead));
  return { count, pieces: pieces.map((piece) => () => rowsFrom(builders, columns, valuesOf(piece))) };
}

interface Pending {
  resolve(rows: unknown[] | RowPieces): void;
  reject(error: Error): void;
}

/** A thread and the reads it has been handed; the one with the fewest takes the next. */
interface ReadThread {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface ReadThreads {
  read(sql: string, parameters: readonly unknown[]): Promise<unknown[] | RowPieces>;
  /** threads still running: a thread that died is not started again */
  running(): number;
  close(): Promise<void>;
}

/**
 * Starts `count` read threads on `file` from `script` (a script that calls runReadThread() when
 * it is one) and resolves once each has opened the database.
 */
export async function startReadThreads(
  script: string,
  file: string,
  count: number,
  /** Node's flags for the threads (a loader for a TypeScript script), when not this thread's */
  execArgv?: string[],
): Promise<ReadThreads> {
  let nextId = 0;
  const builders = newBuilders();
  const threads: ReadThread[] = await Promise.all(
    Array.from({ length: count }, async () => {
      const worker = new Worker(script, {
        workerData: { role: ROLE, file } satisfies ReadThreadSettings,
        ...(execArgv ? { execArgv } : {}),
      });
      const thread: ReadThread = { worker, pending: new Map() };
      await new Promise<void>((ready, failed) => {
        worker.once('error', failed);
        worker.once('exit', (code) => failed(new Error(`a read thread exited with ${code} while starting`)));
        worker.once('message', () => ready());
      });
      // by name: Worker keeps listeners of its own (on 'newListener') that start its message port
      for (const event of ['error', 'exit'] as const) worker.removeAllListeners(event);
      worker.on('message', (answer: Answer) => {
        const waiting = thread.pending.get(answer.id);
        if (!waiting) return;
        thread.pending.delete(answer.id);
        if ('pieces' in answer) waiting.resolve(piecesFrom(builders, answer.columns, answer.count, answer.pieces));
        else waiting.reject(Object.assign(new Error(answer.error.message), answer.error.code ? { code: answer.error.code } : {}));
      });
      // a thread that dies fails what it held; later reads go to the others, or fail if none is left
      const fail = (error: Error) => {
        for (const waiting of thread.pending.values()) waiting.reject(error);
        thread.pending.clear();
        const at = threads.indexOf(thread);
        if (at >= 0) threads.splice(at, 1);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`a read thread exited with ${code}`)));
      return thread;
    }),
  );
  return {
    read(sql, parameters) {
      const thread = threads.reduce<ReadThread | undefined>(
        (least, candidate) => (least === undefined || candidate.pending.size < least.pending.size ? candidate : least),
        undefined,
      );
      if (!thread) return Promise.reject(new Error('no read thread is running'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id, sql, parameters } satisfies Request);
      });
    },
    running: () => threads.length,
    async close() {
      const stopping = [...threads];
      threads.length = 0;
      await Promise.all(stopping.map((thread) => thread.worker.terminate()));
    },
  };
}
