/**
 * What a server's threads share about transactions: turns at the one write lock between the
 * request thread and the background thread (SQLite's, and PostgreSQL's advisory lock), whether a
 * writer waits (which ends an import chunk early or stops its batch), and the longest transaction
 * (for /metrics). KyselyStorage uses them.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { writeLockQuery } from './write-lock-key.ts';

/**
 * How the request thread (`first`) and the background thread (`after`) take turns at SQLite's one
 * write lock, through an Int32Array of two both threads see (`counter`); PostgreSQL uses the first
 * (`countIn`):
 * - `[REQUESTS]`: the request thread's transactions waiting or running. The background thread
 *   begins none while it is above zero. SQLite's busy handler polls at growing intervals, so
 *   without this a thread that commits and begins again at once (an import's chunks) would keep
 *   the lock until it had no more work.
 * - `[AFTER_WRITING]`: 1 while the background thread's transaction runs. The request thread waits
 *   for it on a timer (at most `waitMs`, the busy timeout) before it begins. Left to the busy
 *   handler, that wait slept on the request thread and stopped every request: a token's last use,
 *   written during an import, stalled the thread for a whole chunk (0.9 s measured).
 */
export interface WriterTurns {
  counter: Int32Array;
  role: 'first' | 'after';
  /** SQLite: how long a request waits for the background thread's transaction (PostgreSQL's lock_timeout does it there) */
  waitMs: number;
}
const REQUESTS = 0;
const AFTER_WRITING = 1;
/** the length of `WriterTurns.counter` */
export const WRITER_TURNS_SLOTS = 2;
/**
 * Waits until `counter[slot]` no longer holds `value`, or `ms` have passed. The other thread wakes
 * it as it changes the slot (`Atomics.notify`), where a 1 ms timer polled before: a request's write
 * then began about a millisecond after the import's transaction ended, and the import's next chunk
 * a millisecond after the request's.
 */
async function changeFrom(counter: Int32Array, slot: number, value: number, ms = Infinity): Promise<void> {
  const waited = Atomics.waitAsync(counter, slot, value, ms);
  if (!waited.async) return;
  // a pending waitAsync does not keep Node's event loop alive: a process with nothing else to do
  // (a script embedding the storage) would exit mid-wait; a timer held meanwhile keeps it
  const alive = setInterval(() => undefined, 1 << 30);
  try {
    await waited.value;
  } finally {
    clearInterval(alive);
  }
}

/** Waits until none of the request thread's transactions waits or runs. */
async function noRequests(counter: Int32Array): Promise<void> {
  for (let requests; (requests = Atomics.load(counter, REQUESTS)) > 0;) await changeFrom(counter, REQUESTS, requests);
}

/** The request thread's transaction is done; the last one to leave wakes the background thread. */
function leave(counter: Int32Array): void {
  if (Atomics.sub(counter, REQUESTS, 1) === 1) Atomics.notify(counter, REQUESTS);
}

/** The background thread's transaction is done (or never began); a request waiting for it goes. */
function endWriting(counter: Int32Array): void {
  Atomics.store(counter, AFTER_WRITING, 0);
  Atomics.notify(counter, AFTER_WRITING);
}

/** Runs `run` when it is this thread's turn (see WriterTurns). */
export async function takeTurn<T>(turns: WriterTurns, run: () => Promise<T>): Promise<T> {
  const { counter } = turns;
  if (turns.role === 'after') {
    // says it is writing, then looks again: a request thread that counted itself in between
    // goes first, and one that counts itself later sees the flag and waits
    for (;;) {
      await noRequests(counter);
      Atomics.store(counter, AFTER_WRITING, 1);
      if (Atomics.load(counter, REQUESTS) === 0) break;
      endWriting(counter);
    }
    try {
      return await run();
    } finally {
      endWriting(counter);
    }
  }
  Atomics.add(counter, REQUESTS, 1);
  try {
    const deadline = performance.now() + turns.waitMs;
    while (Atomics.load(counter, AFTER_WRITING) !== 0) {
      const left = deadline - performance.now();
      // refused as the busy handler would refuse it (503 with Retry-After), not served late
      if (left <= 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      await changeFrom(counter, AFTER_WRITING, 1, left);
    }
    return await run();
  } finally {
    leave(counter);
  }
}

/**
 * PostgreSQL's turns, where the write lock itself orders the transactions and the waiting is the
 * server's: the request thread (`first`) only counts its transactions in while they wait and run,
 * so that the background thread's long work gives way to them (GivesWay), and the background
 * thread (`after`) begins none while that count is above zero, as on SQLite: a chunk begun after a
 * request counted itself in, but before that request reached the lock, would otherwise take the
 * lock first and run a whole batch that cannot give way.
 */
export async function countIn<T>(turns: WriterTurns, run: () => Promise<T>): Promise<T> {
  const { counter } = turns;
  if (turns.role === 'after') {
    await noRequests(counter);
    return run();
  }
  Atomics.add(counter, REQUESTS, 1);
  try {
    return await run();
  } finally {
    leave(counter);
  }
}

/**
 * How work on the background thread lets one of the request thread's writes stop it part-way
 * (giving-way.ts): `work` runs in a savepoint of the transaction (`savepoint`), undone when it
 * gives way, and then the answer is undefined.
 */
export interface GivesWay {
  run<S, T>(savepoint: (work: (sp: S) => Promise<T>) => Promise<T>, work: (sp: S) => Promise<T>): Promise<{ value: T } | undefined>;
}

/** Whether one of the request thread's transactions waits for the background thread's (or runs). */
export function requestsWaiting(turns: WriterTurns | undefined): boolean {
  return turns?.role === 'after' && Atomics.load(turns.counter, REQUESTS) > 0;
}

/** Whether a transaction of any server waits for PostgreSQL's write lock. */
export async function writeLockWanted(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql.raw<{ wanted: boolean }>(writeLockQuery('not granted', 'wanted')).execute(db);
  return rows[0]?.wanted === true;
}

/** Raises `slot[0]` to `micros` unless it holds more, whichever thread writes it meanwhile. */
export function keepLongest(slot: Int32Array, micros: number): void {
  const value = Math.min(micros, 0x7fffffff);
  for (let seen = Atomics.load(slot, 0); value > seen;) {
    const found = Atomics.compareExchange(slot, 0, seen, value);
    if (found === seen) return;
    seen = found;
  }
}
