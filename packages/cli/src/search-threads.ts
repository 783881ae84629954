/**
 * On SQLite, `lectern serve` reads searches on threads of their own (@lectern/storage's read
 * threads), one per search it runs at once (--search-concurrency): a search that reads every row
 * would otherwise stop every other request for as long as it takes. The threads run this process's
 * own script, as the background thread does; the single executable, whose code has no file a
 * thread could load, and a database in memory, which other connections cannot see, read searches
 * on the request thread.
 */
import { resolve } from 'node:path';
import { isPostgresUrl, startReadThreads, type ReadThreads } from '@lectern/storage';
import { singleExecutable } from './sea.ts';

export interface SearchThreads {
  /** for openLectern: where searches are read once start() has run; undefined when they stay here */
  offloadRead?: (sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;
  /** starts the threads on the database file, which must exist (after openLectern) */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function planSearchThreads(db: string, count: number): SearchThreads {
  const script = process.argv[1];
  if (isPostgresUrl(db) || db === ':memory:' || singleExecutable() || !script) {
    return { start: async () => undefined, stop: async () => undefined };
  }
  let threads: ReadThreads | undefined;
  return {
    offloadRead: (sql, parameters) =>
      threads ? threads.read(sql, parameters) : Promise.reject(new Error('the search threads have not started')),
    async start() {
      threads = await startReadThreads(resolve(script), resolve(db), count);
    },
    async stop() {
      await threads?.close();
    },
  };
}
