/**
 * What changes an assignment inside a transaction someone else opened: the assignments area's own
 * use cases (assignment-service.ts) and the enrollments area, which owns the assignment of each
 * enrollment, both write through here, so every change records its event and brings the tracks
 * holding the content along. No permission checks: the caller has made them.
 */
import type { RequestContext } from '../auth/actor.ts';
import type { AssignmentChanges } from '../ports/assignment-store.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso, todayUtc } from '../shared/clock.ts';
import { assignmentView, lifecycleOf, type AssignmentRecord, type AssignmentRouteAction } from './assignment.ts';
import { applyAction, type LifecycleChange } from './assignment-machine.ts';
import { isTrack } from './track-expansion.ts';
import { followItems, isDone } from './track-progress.ts';

export class AssignmentWrites {
  constructor(private readonly deps: ServiceDeps) {}

  /** The live assignment of a user and a content item, if any. */
  findLive(tx: Stores, userId: number, contentId: number): Promise<AssignmentRecord | undefined> {
    return tx.assignments.findLive(userId, contentId);
  }

  findById(tx: Stores, id: number): Promise<AssignmentRecord | undefined> {
    return tx.assignments.findById(id);
  }

  private today(): string {
    return todayUtc(this.deps.clock);
  }

  /**
   * Inside the caller's transaction: the live assignment of a user+content pair, created (with
   * its `assignment.created` event) when missing. No permission checks: the caller has made them.
   */
  async ensure(
    tx: Stores,
    ctx: RequestContext,
    pair: { userId: number; contentId: number; enrollmentId?: number | null; dueDate?: string | null; expiresAt?: string | null },
  ): Promise<{ record: AssignmentRecord; created: boolean }> {
    const existing = await tx.assignments.findLive(pair.userId, pair.contentId);
    if (existing) return { record: existing, created: false };
    const id = await tx.assignments.insert({
      publicId: this.deps.ids.uuid(),
      userId: pair.userId,
      contentId: pair.contentId,
      dueDate: pair.dueDate ?? null,
      expiresAt: pair.expiresAt ?? null,
      enrollmentId: pair.enrollmentId ?? null,
      created: nowIso(this.deps.clock),
    });
    const record = (await tx.assignments.findById(id))!;
    await this.deps.outbox.record(tx, { type: 'assignment.created', object: assignmentView(record, this.today()) });
    await this.deps.audit.record(tx, ctx, 'assignment.created', record.data.public_id);
    // one more item to do lowers the progress of a started track that holds it
    await this.followTracks(tx, ctx, record, false);
    return { record, created: true };
  }

  /**
   * Inside the caller's transaction: new assignments of pairs whose content no track holds (so no
   * track follows them), with their `assignment.created` events and entries, in a few statements
   * for all: what `ensure` does for each, batched for an import (an enrollment's own too). A pair
   * that already has a live assignment is left as it is and answered undefined.
   */
  async createMissing(
    tx: Stores,
    ctx: RequestContext,
    pairs: ReadonlyArray<{
      userId: number;
      contentId: number;
      dueDate: string | null;
      expiresAt: string | null;
      enrollmentId?: number | null;
    }>,
  ): Promise<Array<AssignmentRecord | undefined>> {
    if (pairs.length === 0) return [];
    const created = nowIso(this.deps.clock);
    const records = await tx.assignments.insertMissing(
      pairs.map((pair) => ({ publicId: this.deps.ids.uuid(), ...pair, enrollmentId: pair.enrollmentId ?? null, created })),
    );
    const written = records.filter((record): record is AssignmentRecord => record !== undefined);
    const today = this.today();
    await this.deps.outbox.record(tx, ...written.map((record) => ({ type: 'assignment.created', object: assignmentView(record, today) })));
    await this.deps.audit.recordMany(
      tx,
      ctx,
      'assignment.created',
      written.map((record) => record.data.public_id),
    );
    return records;
  }

  /** Inside the caller's transaction: an administrative action through the one transition table. */
  async act(tx: Stores, ctx: RequestContext, record: AssignmentRecord, action: AssignmentRouteAction): Promise<AssignmentRecord> {
    const change = applyAction(lifecycleOf(record), action, nowIso(this.deps.clock));
    return this.commitLifecycle(tx, ctx, record, change, action === 'undo-complete' ? { attempt: record.data.attempt + 1 } : {});
  }

  /**
   * Inside the caller's transaction: a lifecycle change the caller worked out through the machine
   * (an enrollment moving the assignment it owns, see enrollments/owned-assignment.ts).
   */
  commitMove(tx: Stores, ctx: RequestContext, record: AssignmentRecord, change: LifecycleChange): Promise<AssignmentRecord> {
    return this.commitLifecycle(tx, ctx, record, change, {});
  }

  /** Inside the caller's transaction: the enrollment `enrollmentId` now owns this assignment. */
  attachToEnrollment(tx: Stores, ctx: RequestContext, record: AssignmentRecord, enrollmentId: number): Promise<AssignmentRecord> {
    return this.commit(tx, ctx, record, { enrollmentId }, 'assignment.updated');
  }

  /** Inside the caller's transaction: deletes the assignment and records `assignment.deleted`; no checks. */
  async delete(tx: Stores, ctx: RequestContext, record: AssignmentRecord): Promise<void> {
    await tx.assignments.softDelete(record.id, nowIso(this.deps.clock));
    await this.deps.outbox.record(tx, { type: 'assignment.deleted', object: assignmentView(record, this.today()) });
    await this.deps.audit.record(tx, ctx, 'assignment.deleted', record.data.public_id);
    // an item no longer assigned no longer counts for the tracks holding it
    await this.followTracks(tx, ctx, record, false);
  }

  commitLifecycle(
    tx: Stores,
    ctx: RequestContext,
    current: AssignmentRecord,
    change: LifecycleChange,
    extra: Omit<AssignmentChanges, 'modified'>,
  ): Promise<AssignmentRecord> {
    const next = change.next;
    return this.commit(
      tx,
      ctx,
      current,
      {
        state: next.state,
        progress: next.progress,
        progressBeforeCompletion: next.progress_before_completion,
        startedAt: next.started_at,
        completedDatetime: next.completed_datetime,
        droppedAt: next.dropped_at,
        exemptedAt: next.exempted_at,
        ...extra,
      },
      change.event,
    );
  }

  /**
   * Writes the changes, stamps `modified`, records the event with the new representation, and —
   * when the lifecycle moved — brings the tracks holding the content along. Every lifecycle change
   * (actions, progress, enrollments, bulk items) passes here, so none can leave a track behind.
   */
  async commit(
    tx: Stores,
    ctx: RequestContext,
    current: AssignmentRecord,
    changes: Omit<AssignmentChanges, 'modified'>,
    eventType: string,
  ): Promise<AssignmentRecord> {
    await tx.assignments.update(current.id, { ...changes, modified: nowIso(this.deps.clock) });
    const after = (await tx.assignments.findById(current.id))!;
    const today = this.today();
    const afterView = assignmentView(after, today);
    await this.deps.outbox.record(tx, { type: eventType, object: afterView });
    const action = changes.state !== undefined ? 'assignment.state_changed' : 'assignment.updated';
    await this.deps.audit.recordUpdate(tx, ctx, action, afterView.public_id, assignmentView(current, today), afterView);
    if (changes.state !== undefined || changes.progress !== undefined) {
      await this.followTracks(tx, ctx, after, isDone(current.data.state) && !isDone(after.data.state));
    }
    return after;
  }

  /**
   * The learner's assignments of the tracks directly holding `item`'s content follow their items
   * (track-progress.ts). A track's own change passes through commit again, which carries it on
   * to the tracks holding that track; containment has no cycles, so this ends.
   */
  private async followTracks(tx: Stores, ctx: RequestContext, item: AssignmentRecord, itemLeftDone: boolean): Promise<void> {
    for (const track of await tx.assignments.trackAssignmentsHolding(item.userId, item.contentId)) {
      await this.followItemsOf(tx, ctx, track, itemLeftDone);
    }
  }

  /** One track assignment brought in step with its items; returns it as it now is. */
  async followItemsOf(tx: Stores, ctx: RequestContext, track: AssignmentRecord, itemLeftDone: boolean): Promise<AssignmentRecord> {
    if (!isTrack(track.contentType)) return track;
    const items = await tx.assignments.trackItemStatuses(track.contentId, track.userId);
    const change = followItems(lifecycleOf(track), items, { now: nowIso(this.deps.clock), itemLeftDone });
    if (!change) return track;
    // reopening a completed track starts the learner's next attempt, as undo-complete does
    return this.commitLifecycle(
      tx,
      ctx,
      track,
      change,
      change.event === 'assignment.completion_undone' ? { attempt: track.data.attempt + 1 } : {},
    );
  }
}
