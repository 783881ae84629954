/**
 * `lectern serve` runs its background work (bulk jobs, imports, webhooks, email, the audit log's
 * upkeep) on a worker thread with a database connection of its own, so that the thread serving
 * requests never runs a chunk: better-sqlite3 is synchronous, and a chunk run there stops every request for as
 * long as it takes. WAL lets the request thread read beside the worker's writes; when both write,
 * they take turns at SQLite's one write lock: the worker begins no transaction while one of the
 * request thread's waits or runs (`writerTurns`, KyselyStorage). The worker is a second runner of the
 * same process, under the same instance id: leases, resumption after a crash and several servers
 * sharing the work are the job engine's as ever (docs/scaling.md, "Where the work runs").
 *
 * On PostgreSQL the driver is asynchronous, but the work is not free: composing an email, a chunk's
 * records and events are CPU on whichever thread runs them, and on one thread a burst of them made
 * GET requests queue behind it (docs/scaling.md). So the worker runs there too, with a pool of its
 * own (`backgroundPoolSize`), which also keeps the request thread's connections for requests, and
 * the same counter (`writerTurns`): the worker begins no transaction while one of the request
 * thread's waits for the write lock or runs, and an import batch in progress stops for it. The
 * single executable has no file a worker thread could load: there the work stays on the one thread.
 */
import { resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { sharedOutcomeCounts, type LecternConfigInput } from '@lectern/core';
import type { Logger } from 'pino';
import { createLogger, type LogLevel } from './logger.ts';
import { openLectern } from './open-lectern.ts';
import { singleExecutable } from './sea.ts';

/** What the request thread tells the worker, and what the worker answers. */
type ToWorker = { wake: number } | { deliver: true } | { stop: true };
type FromWorker = { ready: true } | { stopped: true };

interface WorkerSettings {
  role: 'lectern-background';
  db: string;
  config: LecternConfigInput;
  logLevel: LogLevel;
  /** the write-turn counter the request thread's storage counts its transactions in (both databases) */
  writerTurns: Int32Array;
  /** the longest transaction, which the request thread's /metrics reads and resets */
  longestTransaction: Int32Array;
  /** PostgreSQL: the worker's own pool, beside the request thread's */
  poolSize: number;
  /** the webhook outcome counts (`sharedOutcomeCounts`): the worker delivers, the request thread's metrics read them */
  deliveryOutcomes: SharedArrayBuffer;
}

export interface BackgroundThread {
  /** tells the worker of a job stored on the request thread */
  wake(jobId: number): void;
  /** tells the worker of webhook events recorded on the request thread */
  deliver(): void;
  /** lets the chunk in progress commit, then ends the worker */
  stop(): Promise<void>;
}

/** The background thread's PostgreSQL connections: a third of the request thread's pool, at least two. */
export const backgroundPoolSize = (requestPoolSize: number): number => Math.max(2, Math.ceil(requestPoolSize / 3));

/** Whether `startBackgroundThread` starts one here: not in the single executable, whose code has no file a thread could load. */
export function backgroundThreadStarts(): boolean {
  return !singleExecutable() && Boolean(process.argv[1]);
}

/**
 * The worker's young generation (V8's nursery, three semi-spaces' worth), twice V8's default: an
 * import batch allocates a few MB of short-lived rows, statements and event payloads, and with the
 * default nursery the worker spent a fifth of its busy time in the garbage collector
 * (docs/scaling.md, "Less of the server's CPU a row").
 */
const BACKGROUND_YOUNG_GENERATION_MB = 96;

/**
 * Starts the worker; undefined where the work stays on this thread (the single executable). The
 * server does not wait for it: loading the code again on a thread of its own is most of a server's
 * start-up, and nothing needs the worker at once. What it is sent meanwhile waits
 * in its port, and jobs stored meanwhile wait in their table, as they would for a restart.
 * `onDeath` is told when the worker ends without being asked to, while starting or after.
 */
export function startBackgroundThread(
  settings: Omit<WorkerSettings, 'role'>,
  logger: Logger,
  onDeath: (error: Error) => void,
): BackgroundThread | undefined {
  const script = process.argv[1];
  if (!script || !backgroundThreadStarts()) return undefined;
  // the script this process started with (the bundle, or the CLI's source under tsx, whose loader
  // the worker inherits with the rest of execArgv) starts the worker too: see runBackgroundThread
  const worker = new Worker(resolve(script), {
    workerData: { role: 'lectern-background', ...settings } satisfies WorkerSettings,
    resourceLimits: { maxYoungGenerationSizeMb: BACKGROUND_YOUNG_GENERATION_MB },
  });
  let stopping: (() => void) | undefined;
  const exited = new Promise<void>((done) =>
    worker.once('exit', (code) => {
      if (!stopping) onDeath(new Error(`the background thread exited with ${code}`));
      done();
    }),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'the background thread failed'));
  worker.on('message', (message: FromWorker) => {
    if ('ready' in message) logger.debug('the background thread is running');
    if ('stopped' in message) stopping?.();
  });
  const send = (message: ToWorker) => worker.postMessage(message);
  return {
    wake: (jobId) => send({ wake: jobId }),
    deliver: () => send({ deliver: true }),
    stop: async () => {
      // a worker that died (and was reported) answers nothing: its exit ends the wait too
      await Promise.race([
        exited,
        new Promise<void>((stopped) => {
          stopping = stopped;
          send({ stop: true });
        }),
      ]);
      // a worker still held by some handle after its storage closed is ended
      const held = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(held);
    },
  };
}

/** True, and the worker started, when this thread is the background thread of a server. */
export function runBackgroundThread(): boolean {
  const settings = workerData as Partial<WorkerSettings> | null;
  if (isMainThread || !parentPort || settings?.role !== 'lectern-background') return false;
  const port = parentPort;
  void (async () => {
    const logger = createLogger(settings.logLevel!);
    const lectern = await openLectern(settings.db!, {
      config: settings.config!,
      logger,
      writerTurns: { counter: settings.writerTurns!, role: 'after' },
      longestTransaction: settings.longestTransaction!,
      poolSize: settings.poolSize!,
      deliveryOutcomes: sharedOutcomeCounts(settings.deliveryOutcomes!),
    });
    // webhooks and email are sent from here: a delivery's signing and JSON, a message's templates,
    // invitation and MIME are CPU that a burst of thousands would take from requests
    await lectern.start({ jobs: 'here', deliveries: true, mail: true, auditUpkeep: true });
    port.on('message', (message: ToWorker) => {
      if ('wake' in message) lectern.jobs.wake(message.wake);
      else if ('deliver' in message) lectern.wakeDeliveries();
      else
        void lectern.close().finally(() => {
          logger.flushNow();
          port.postMessage({ stopped: true } satisfies FromWorker);
          port.close();
        });
    });
    port.postMessage({ ready: true } satisfies FromWorker);
  })().catch((error: unknown) => {
    // the request thread sees the worker end while starting and reports it
    process.stderr.write(`error: the background thread could not start: ${(error as Error).message}\n`);
    process.exit(1);
  });
  return true;
}
