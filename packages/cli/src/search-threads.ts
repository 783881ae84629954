/**
 * On SQLite, `lectern serve` reads searches on threads of their own (@lectern/storage's read
 * threads), one per search it runs at once (--search-concurrency): a search that reads every row
 * would otherwise stop every other request for as long as it takes. The threads start with the
 * first search or export, so a server nobody searches costs nothing more; the reads that come
 * while they start wait for them, and if they cannot start, reads run on the request thread.
 * Exports' batches are read there too. The threads run this process's
 * own script, as the background thread does; the single executable, whose code has no file a
 * thread could load, and a database in memory, which other connections cannot see, read searches
 * on the request thread.
 */
import { resolve } from 'node:path';
import { isPostgresUrl, startReadThreads, type OffloadedRead, type ReadThreads } from '@lectern/storage';
import type { Logger } from 'pino';
import { singleExecutable } from './sea.ts';

export interface SearchThreads {
  /** for openLectern: where searches are read; undefined when they stay on the request thread */
  offloadRead?: OffloadedRead;
  stop(): Promise<void>;
}

export function planSearchThreads(db: string, count: number, logger: Logger): SearchThreads {
  const script = process.argv[1];
  if (isPostgresUrl(db) || db === ':memory:' || singleExecutable() || !script) return { stop: async () => undefined };
  let threads: ReadThreads | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;
  const start = () =>
    startReadThreads(resolve(script), resolve(db), count).then(
      (started) => {
        if (stopped) void started.close();
        else threads = started;
      },
      (error: unknown) => logger.warn({ err: error }, 'the search threads could not start: searches are read on the request thread'),
    );
  return {
    offloadRead(sql, parameters) {
      if (threads && threads.running() > 0) return threads.read(sql, parameters);
      if (stopped) return undefined;
      // the first reads wait for the threads to start rather than run here meanwhile: an export
      // read here never gives this thread back, so it would never see them ready
      starting ??= start();
      return starting.then(() => (threads && threads.running() > 0 ? threads.read(sql, parameters) : undefined));
    },
    async stop() {
      stopped = true;
      await starting;
      await threads?.close();
    },
  };
}
