/**
 * How the background thread's long work (an import chunk's batch) lets one of the request thread's
 * writes go first part-way, on SQLite and on PostgreSQL alike: its next statement after a request
 * counted itself in (`requestsWaiting`, transaction-turns.ts) throws instead of running.
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
  /** the work in progress in this async context; `stopped` once one of its statements gave way */
  private readonly work = new AsyncLocalStorage<{ stopped: boolean; running: boolean }>();

  constructor(private readonly turns: WriterTurns) {}

  /** The dialect whose statements `run` may stop. */
  dialect(dialect: Dialect): Dialect {
    return intercepting(dialect, (query, execute) => {
      const work = this.work.getStore();
      if (work?.running && !SAVEPOINT_STATEMENT.test(query.sql) && (work.stopped || requestsWaiting(this.turns))) {
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
        const state = { stopped: false, running: true };
        try {
          const value = await this.work.run(state, () => work(sp));
          // work that swallowed the throw and issued no statement after it
          if (state.stopped) throw new GaveWay('a request waits for the write lock');
          return value;
        } finally {
          state.running = false;
        }
      });
      return { value };
    } catch (error) {
      if (error instanceof GaveWay) return undefined;
      throw error;
    }
  }
}
