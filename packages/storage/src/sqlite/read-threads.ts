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
import { openSqliteDatabase } from './open-sqlite-storage.ts';
import { CachedStatementDatabase } from './statement-cache.ts';

const ROLE = 'lectern-read-thread';

interface ReadThreadSettings {
  role: typeof ROLE;
  file: string;
}

type Request = { id: number; sql: string; parameters: readonly unknown[] };
type Answer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

/** True, and the thread serving reads, when this thread was started as a read thread. */
export function runReadThread(): boolean {
  const settings = workerData as Partial<ReadThreadSettings> | null;
  if (isMainThread || !parentPort || settings?.role !== ROLE) return false;
  const port = parentPort;
  const raw = openSqliteDatabase({ file: settings.file!, mustExist: true });
  raw.pragma('query_only = 1');
  // statements kept by SQL text, and rows built as the request thread builds them
  const db = new CachedStatementDatabase(raw);
  port.on('message', ({ id, sql, parameters }: Request) => {
    let answer: Answer;
    try {
      answer = { id, rows: db.prepare(sql).all(parameters) as unknown[] };
    } catch (error) {
      const { message, code } = error as Error & { code?: string };
      answer = { id, error: { message, ...(typeof code === 'string' ? { code } : {}) } };
    }
    port.postMessage(answer);
  });
  port.postMessage({ ready: true });
  return true;
}

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** A thread and the reads it has been handed; the one with the fewest takes the next. */
interface ReadThread {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface ReadThreads {
  read(sql: string, parameters: readonly unknown[]): Promise<unknown[]>;
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
        if ('rows' in answer) waiting.resolve(answer.rows);
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
