/**
 * Promotion from the wait list (docs/events.md): whenever a seat of a method may have freed — a drop
 * of an enrolled enrollment, an event PATCH that raised a limit — the oldest waitlisted
 * enrollments of that method take the free seats, in the same transaction, each recording
 * `enrollment.enrolled`. Because it always runs where seats free up, a free seat and a non-empty
 * wait list never coexist after a commit, and a newcomer can never jump the queue.
 */
import type { RequestContext } from '../auth/actor.ts';
import type { EventRecord } from '../events/event.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { attendanceMethods, limitsFor, promote, seatsToPromote, type AttendanceMethod } from './enrollment-rules.ts';

export class Waitlist {
  constructor(private readonly deps: ServiceDeps) {}

  /** Fills the free seats of `methods` (both by default) of `event` from their wait lists. */
  async fillFreedSeats(
    tx: Stores,
    ctx: RequestContext,
    event: Pick<EventRecord, 'id' | 'settings'>,
    methods: readonly AttendanceMethod[] = attendanceMethods,
  ): Promise<number> {
    let promoted = 0;
    for (const method of methods) {
      const { limit } = limitsFor(event.settings, method);
      const counts = await tx.enrollments.countActive(event.id, method);
      if (counts.waitlisted === 0 || (limit > 0 && counts.enrolled >= limit)) continue;
      const room = limit === 0 ? counts.waitlisted : limit - counts.enrolled;
      const waiting = await tx.enrollments.oldestWaitlisted(event.id, method, room);
      for (const record of seatsToPromote({ limit, enrolled: counts.enrolled, waitlistedOldestFirst: waiting })) {
        const change = promote({ status: record.status, checkin_datetime: record.checkinDatetime });
        if (!change.changed) continue;
        await tx.enrollments.update(record.id, { status: change.next.status, modified: nowIso(this.deps.clock) });
        const promotedRecord = (await tx.enrollments.findById(record.id))!;
        await this.deps.outbox.record(tx, ...change.events.map((type) => ({ type, object: promotedRecord.view })));
        // recorded as done by whoever freed the seat: the promotion is part of their change
        await this.deps.audit.recordUpdate(tx, ctx, 'enrollment.updated', promotedRecord.view.public_id, record.view, promotedRecord.view);
        promoted++;
      }
    }
    return promoted;
  }
}
