/**
 * Outbox → deliveries. Each pass reads the events after the stored cursor, creates a pending
 * delivery per subscribed active endpoint, and advances the cursor, in one transaction: an event
 * is fanned out exactly once, and a crash at any point loses none.
 */
import type { Storage } from '../ports/storage.ts';
import { nowIso, type Clock } from '../shared/clock.ts';

/** Events per transaction: large enough for bursts, small enough not to hold the write lock long. */
const BATCH_EVENTS = 500;

/**
 * A pass runs beside the writers rather than taking its turn at the write lock (PostgreSQL): it
 * reads only committed events, and since writers commit them under the lock in the order of their
 * sequence, the events after the cursor that a pass sees are all there will ever be up to the last
 * of them; the cursor row's lock (dispatchCursor) orders passes of several servers. Taking the
 * lock after every commit that woke it made an import's chunk find a writer waiting after each
 * batch and end there: one batch a chunk, each paying the chunk's own round trips and the wait.
 */
const WITHOUT_WRITE_LOCK = { withoutWriteLock: true };

export class DeliveryDispatcher {
  /** The cursor as last seen; only a hint, the stored one decides. */
  private seenCursor: number | null = null;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  /** Fans out every event recorded so far; returns how many deliveries were created. */
  async dispatch(): Promise<number> {
    let created = 0;
    for (;;) {
      // Nothing new is the common case: answer it with a read, without taking the write lock.
      if (this.seenCursor !== null && !(await this.storage.outbox.hasEventsAfter(this.seenCursor))) return created;
      const pass = await this.storage.transaction(async (tx) => {
        const cursor = await tx.webhookDeliveries.dispatchCursor();
        const fanned = await tx.webhookDeliveries.fanOut(cursor, BATCH_EVENTS, nowIso(this.clock));
        if (fanned) await tx.webhookDeliveries.setDispatchCursor(fanned.lastSequence);
        return { cursor: fanned?.lastSequence ?? cursor, events: fanned?.events ?? 0, deliveries: fanned?.deliveries ?? 0 };
      }, WITHOUT_WRITE_LOCK);
      this.seenCursor = pass.cursor;
      created += pass.deliveries;
      if (pass.events < BATCH_EVENTS) return created;
    }
  }
}
