/**
 * How the background thread's long work (an import chunk's batch) lets one of the request thread's
 * writes go first part-way, on SQLite and on PostgreSQL alike: its next statement after a request
 * counted itself in (`requestsWaiting`, transaction-turns.ts) throws instead of running. On
 * PostgreSQL, another server's write waiting for the lock stops it too, seen by looking at the
 * database every few milliseconds while the work runs (`seeOtherServers`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dialect } from 'kysely';
import { intercepting } from './shared/intercepting-dialect.ts';
import { requestsWaiting, type GivesWay, type WriterTurns } from './transaction-turns.ts';

/** Thrown at a statement of `GivingWay.run`'s work once a request's write waits; never seen by its caller. */
class GaveWay extends Error {}

/** The statements that open, undo and close savepoints, which must run for the work to unwind. */
const SAVEPOINT_STATEMENT = /^\s*(savepoint|release|rollback)\b/i;

/**
 * How often, while work runs, whether another server's write waits is looked at (`othersWaiting`):
 * that server shares no counter with this one, so it is asked of the database, a statement each
 * time (on PostgreSQL a look at pg_locks, a fraction of a millisecond of its time).
 */
const OTHERS_LOOKED_AT_EVERY_MS = 10;

interface Work {
  /** set once one of its statements gave way */
  stopped: boolean;
  running: boolean;
  /** set once a look found another server's write waiting */
  othersWait: boolean;
}

/**
 * While `run`'s work runs, its next statement after one of the request thread's transactions
 * counted itself in throws instead, and so does every statement after it until the work ends,
 * except the savepoint statements that unwind it. The work runs in a savepoint, rolled back then,
 * so nothing it wrote or decided survives: an error it caught and took for a refusal (a batch that
 * failed as a whole, say) is undone with the rest, since the statement that follows throws again.
 *
 * Which statements are the work's is told by the async context `run` starts, not by the
 * connection: on PostgreSQL the background thread's other work (email, webhooks, the audit log's
 * upkeep) runs beside it on other connections of its pool and must not be stopped.
 */
export class GivingWay implements GivesWay {
  /** the work in progress in this async context */
  private readonly work = new AsyncLocalStorage<Work>();
  /** whether another server's write waits (PostgreSQL: pg_locks), when other servers may share the database */
  private othersWaiting: (() => Promise<boolean>) | undefined;

  constructor(private readonly turns: WriterTurns) {}

  /**
   * Makes the work give way to other servers' writes too: `othersWaiting` is asked every
   * OTHERS_LOOKED_AT_EVERY_MS while work runs, and its next statement after a yes throws, as for a
   * write of this server's request thread, which is seen at once (a shared counter).
   */
  seeOtherServers(othersWaiting: () => Promise<boolean>): void {
    this.othersWaiting = othersWaiting;
  }

  /** The dialect whose statements `run` may stop. */
  dialect(dialect: Dialect): Dialect {
    return intercepting(dialect, (query, execute) => {
      const work = this.work.getStore();
      if (work?.running && !SAVEPOINT_STATEMENT.test(query.sql) && (work.stopped || work.othersWait || requestsWaiting(this.turns))) {
        work.stopped = true;
        throw new GaveWay('a request waits for the write lock');
      }
      return execute();
    });
  }

  async run<S, T>(savepoint: (work: (sp: S) => Promise<T>) => Promise<T>, work: (sp: S) => Promise<T>): Promise<{ value: T } | undefined> {
    try {
      const value = await savepoint(async (sp) => {
        // its own state, so that what the work left running (a timer, say) is never stopped later
        const state: Work = { stopped: false, running: true, othersWait: false };
        const stopLooking = this.lookForOthers(state);
        try {
          const value = await this.work.run(state, () => work(sp));
          // work that swallowed the throw and issued no statement after it
          if (state.stopped) throw new GaveWay('a request waits for the write lock');
          return value;
        } finally {
          state.running = false;
          stopLooking();
        }
      });
      return { value };
    } catch (error) {
      if (error instanceof GaveWay) return undefined;
      throw error;
    }
  }

  /**
   * Asks `othersWaiting` every OTHERS_LOOKED_AT_EVERY_MS, one look at a time, until a yes or the
   * returned stop. The looks run outside the work's async context, so they are never refused, and
   * a look that fails changes nothing (the chunk still looks between batches).
   */
  private lookForOthers(state: Work): () => void {
    const othersWaiting = this.othersWaiting;
    if (!othersWaiting) return () => undefined;
    let timer: NodeJS.Timeout | undefined;
    const look = async () => {
      try {
        if (await othersWaiting()) state.othersWait = true;
      } catch {
        // no answer this time
      }
      if (state.running && !state.othersWait) timer = setTimeout(look, OTHERS_LOOKED_AT_EVERY_MS);
    };
    this.work.exit(() => (timer = setTimeout(look, OTHERS_LOOKED_AT_EVERY_MS)));
    return () => clearTimeout(timer);
  }
}
