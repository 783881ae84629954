/**
 * Checkpoints of SQLite's write-ahead log on a server with a background thread: taken by that
 * thread between its turns at the write lock, and by no commit.
 *
 * By default the commit that leaves the log past 1 000 pages copies the log into the database file
 * and syncs both, within its own COMMIT. On the background thread that commit is an import chunk's
 * (thousands of pages), so a request's write waiting for the chunk waited for the checkpoint too:
 * a chunk's commit took 20 ms at the median and up to 83 ms with it, 7 ms without (an import of
 * 100 000 assignments, two cores, load 5). On the request thread it would stop every request. A
 * passive checkpoint waits for no reader or writer, so taken after the turn it runs beside the
 * request's write instead of before it.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** A checkpoint after a turn at most this often: a burst of small writes (deliveries) syncs a few times a second, not each time */
const MIN_GAP_MS = 100;
/** And this often while nothing else takes one, for the request thread's writes alone */
const IDLE_EVERY_MS = 1000;

/** Turns a connection's own checkpoints off, for another connection's `CheckpointsBetweenTurns` to take. */
export function leaveCheckpointsToBackground(raw: BetterSqlite3.Database): void {
  raw.pragma('wal_autocheckpoint = 0');
}

export class CheckpointsBetweenTurns {
  private last = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly raw: BetterSqlite3.Database) {
    leaveCheckpointsToBackground(raw);
    this.timer = setInterval(() => this.take(), IDLE_EVERY_MS);
    this.timer.unref();
  }

  /** Called once the background thread's turn has ended (its transaction committed or rolled back). */
  afterTurn(): void {
    if (performance.now() - this.last >= MIN_GAP_MS) this.take();
  }

  close(): void {
    clearInterval(this.timer);
  }

  private take(): void {
    // a transaction begun since (the work's next) holds the connection: the next turn takes it
    if (!this.raw.open || this.raw.inTransaction) return;
    this.last = performance.now();
    try {
      this.raw.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // the connection steps through another statement's rows (an export's batch): the next one takes it
    }
  }
}
