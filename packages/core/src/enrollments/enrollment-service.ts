import { BulkJobs, type BulkFamily } from '../jobs/bulk-jobs.ts';
import { requireUserReference, userIdsOf } from '../users/user-references.ts';
import { findEventAnyVisibility, findEventSeats, requireEventReference } from '../events/event-references.ts';
import { authorize, isLearner, type Actor, type RequestContext } from '../auth/actor.ts';
import { lifecycleOf } from '../assignments/assignment.ts';
import type { AssignmentWrites } from '../assignments/assignment-writes.ts';

import type { EventRecord } from '../events/event.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { AppliedItem } from '../jobs/job.ts';

import type { EventSeats } from '../ports/event-store.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { conflict, forbidden, isLecternError, notFound, type LecternError } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { noBodyInput } from '../shared/schema.ts';
import { parseArgument, parseEach, parseInput, type InputOf, type BulkInputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import {
  createEnrollmentInput,
  enrollmentActions,
  enrollmentListSpec,
  type CreateEnrollmentInput,
  type Enrollment,
  type EnrollmentAction,
  type EnrollmentRecord,
} from './enrollment.ts';
import { checkin, decideEnrollment, drop, limitsFor, offeredMethods, undoCheckin, type EnrollmentChange } from './enrollment-rules.ts';
import { ownedAssignmentChange } from './owned-assignment.ts';
import type { Waitlist } from './waitlist.ts';
import type { ListNarrowing } from '../ports/list-narrowing.ts';

export const MAX_BULK_ENROLLMENTS = 200;
const enrollmentBulk: BulkFamily = {
  name: 'enrollments',
  maxItems: MAX_BULK_ENROLLMENTS,
  scopes: { write: 'enrollments:write', read: 'enrollments:read' },
};

/**
 * What role `user` may do to its own enrollments. Attendance is staff's record: taking it and
 * undoing it are both for organizers and admins, or a learner could erase its own absence.
 */
const learnerActions: ReadonlySet<EnrollmentAction> = new Set(['drop']);

export interface EnrollResult {
  enrollment: Enrollment;
  /** false when an identical active enrollment was returned (200 rather than 201) */
  created: boolean;
}

export class EnrollmentService {
  /** `…/bulk/` routes: submit a job of this area's items, read it and its items */
  readonly bulk: BulkJobs<BulkInputOf<'enrollments', typeof createEnrollmentInput>>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly assignments: AssignmentWrites,
    private readonly waitlist: Waitlist,
    private readonly jobs: JobEngine,
  ) {
    this.bulk = new BulkJobs(jobs, enrollmentBulk, {
      handle: async (tx, ctx, item) => {
        const { record, created } = await this.enrollInTx(tx, ctx, parseInput(createEnrollmentInput, item));
        return { publicId: record.view.public_id, created };
      },
      many: (tx, ctx, items) => this.enrollManyInTx(tx, ctx, items),
    });
  }

  /** `narrowing` is a saved report's (see SavedReportService.results); learners still see only their own. */
  async list(ctx: RequestContext, params: QueryParams, narrowing: ListNarrowing = {}): Promise<ListResult<Enrollment>> {
    authorize(ctx.actor, 'enrollments:read');
    const query = parseListQuery(enrollmentListSpec, params);
    const ownerId = isLearner(ctx.actor) ? ctx.actor.userId : null;
    return toListResult(query, await this.deps.storage.enrollments.list(query, { ...narrowing, ownerId }), (record) => record.view);
  }

  async get(ctx: RequestContext, publicId: string): Promise<Enrollment> {
    authorize(ctx.actor, 'enrollments:read');
    return (await this.require(this.deps.storage, ctx.actor, publicId)).view;
  }

  /** `POST /enrollments/`: create-or-get; every decision and its write in one transaction. */
  async create(ctx: RequestContext, body: InputOf<typeof createEnrollmentInput>): Promise<EnrollResult> {
    authorize(ctx.actor, 'enrollments:write');
    const input = parseInput(createEnrollmentInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const { record, created } = await this.enrollInTx(tx, ctx, input);
      return { enrollment: record.view, created };
    });
  }

  /** `checkin`, `drop`, `undo-checkin`: 200 with the enrollment, or the state's 409. */
  async act(
    ctx: RequestContext,
    publicId: string,
    action: EnrollmentAction,
    body: InputOf<typeof noBodyInput> = {},
    options: WriteOptions = {},
  ): Promise<Enrollment> {
    authorize(ctx.actor, 'enrollments:write');
    parseArgument('action', enrollmentActions, action);
    parseInput(noBodyInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, ctx.actor, publicId);
      if (isLearner(ctx.actor) && !learnerActions.has(action))
        throw forbidden('Check-in is recorded, and undone, by the event organizers.');
      assertIfMatch(options.ifMatch, current.view);
      const now = nowIso(this.deps.clock);
      const lifecycle = { status: current.status, checkin_datetime: current.checkinDatetime };
      const change = action === 'checkin' ? checkin(lifecycle, now) : action === 'drop' ? drop(lifecycle) : undoCheckin(lifecycle);
      return (await this.applyChange(tx, ctx, current, change)).view;
    });
  }

  /**
   * The create-or-get rules, shared by the bulk job's items. The counts the decision reads and the
   * row it writes are in the caller's transaction, which SQLite serialises with every other
   * writer: two requests can never both take the last seat.
   */
  private async enrollInTx(
    tx: Stores,
    ctx: RequestContext,
    input: CreateEnrollmentInput,
  ): Promise<{ record: EnrollmentRecord; created: boolean }> {
    const actor = ctx.actor;
    if (isLearner(actor) && input.user_id !== actor.publicId) throw forbidden('You may only enroll yourself.');
    const user = await requireUserReference(tx, input.user_id, 'user_id');
    const event = await requireEventReference(tx, actor, input.event_id, 'event_id');
    const method = input.attendance_method;

    const existing = await tx.enrollments.findActive(event.id, user.id);
    // create-or-get answers an identical enrollment whatever has changed since, so retries are safe
    if (existing?.method !== method) {
      if (event.content.summary.is_archived) throw conflict('archived', 'This event is archived and takes no new enrollments.');
      // enrolling owns an assignment: a learner may do it only where it may assign itself
      if (isLearner(actor) && !event.content.summary.is_self_assignable) throw forbidden('This event does not take self-enrollment.');
    }
    const decision = decideEnrollment({
      method,
      offered: offeredMethods(event.settings),
      capacity: { ...limitsFor(event.settings, method), ...(await tx.enrollments.countActive(event.id, method)) },
      existingActive: existing && { method: existing.method, status: existing.status },
      acceptWaitlist: input.accept_waitlist ?? false,
    });
    if (decision.outcome === 'existing') return { record: existing!, created: false };

    const id = (await tx.enrollments.reserveIds(1))[0]!;
    await tx.enrollments.insertMany([
      {
        id,
        publicId: this.deps.ids.uuid(),
        userId: user.id,
        eventId: event.id,
        method,
        status: decision.outcome,
        created: nowIso(this.deps.clock),
        assignmentId: await this.ownAssignment(tx, ctx, user.id, event, id),
      },
    ]);
    const record = (await tx.enrollments.findById(id))!;
    await this.deps.outbox.record(tx, ...decision.events.map((type) => ({ type, object: record.view })));
    await this.deps.audit.record(tx, ctx, 'enrollment.created', record.view.public_id);
    return { record, created: true };
  }

  /**
   * A chunk of items (a bulk job's, an import's), where create-or-get reduces to inserts: new
   * enrollments of users with no active enrollment and no live assignment for the event, into
   * events no track holds, which a staff member makes. Each event is read once, with its seat
   * counts, and seats are decided item by item in the chunk's order, as `enrollInTx` would decide
   * them one after another: accepted items are written a few statements for all, each with its
   * owned assignment, events, notifications and entries; refused ones (full, wait list full,
   * method not offered) are answered with the error `enrollInTx` would throw. The rest are left
   * undefined for the item write (`bulk`), and once an item of an event is left, so are the event's
   * later items, so seats still go in the chunk's order.
   */
  enrollManyInTx(tx: Stores, ctx: RequestContext, items: readonly unknown[]): Promise<Array<AppliedItem | LecternError | undefined>> {
    return this.enrollParsedManyInTx(tx, ctx, parseEach(createEnrollmentInput, items));
  }

  /**
   * `enrollManyInTx` for items through `createEnrollmentInput` already (an import's rows); undefined
   * for one that failed it. `knownUsers`: users the caller looked up in this transaction (public id
   * to id), not looked up again.
   */
  async enrollParsedManyInTx(
    tx: Stores,
    ctx: RequestContext,
    inputs: ReadonlyArray<CreateEnrollmentInput | undefined>,
    knownUsers?: ReadonlyMap<string, number>,
  ): Promise<Array<AppliedItem | LecternError | undefined>> {
    const answers: Array<AppliedItem | LecternError | undefined> = inputs.map(() => undefined);
    if (isLearner(ctx.actor)) return answers;
    const given = inputs.filter((input): input is CreateEnrollmentInput => input !== undefined);
    const userIds = await userIdsOf(
      tx,
      given.map((input) => input.user_id),
      knownUsers,
    );
    const events = await findEventSeats(tx, ctx.actor, [...new Set(given.map((input) => input.event_id))]);
    for (const [publicId, event] of events) if (event.isArchived) events.delete(publicId);
    const held = await tx.assignments.heldByTracks([...events.values()].map((event) => event.id));

    // a second item of the same user and event is left to the item write, which answers it after
    // the first: it leaves its event, since it may take a wait-list place the first was refused
    type Candidate = { index: number; input: CreateEnrollmentInput; userId: number; event: EventSeats; repeated: boolean };
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    inputs.forEach((input, index) => {
      const userId = input && userIds.get(input.user_id);
      const event = input && events.get(input.event_id);
      if (!input || userId === undefined || !event || held.has(event.id)) return;
      const repeated = seen.has(`${event.id}:${userId}`);
      seen.add(`${event.id}:${userId}`);
      candidates.push({ index, input, userId, event, repeated });
    });
    const pairs = candidates
      .filter(({ repeated }) => !repeated)
      .map(({ userId, event }) => ({ eventId: event.id, userId, contentId: event.id }));
    const active = await tx.enrollments.activePairs(pairs);
    const assigned = await tx.assignments.livePublicIds(pairs);

    // seats in the batch's order, from the counts the event records were read with (in this
    // transaction); an event whose row is left to the item write takes no more here
    const counts = new Map<string, { enrolled: number; waitlisted: number }>();
    const leftEvents = new Set<number>();
    const decided: Array<Candidate & { status: 'enrolled' | 'waitlisted'; events: readonly string[] }> = [];
    for (const candidate of candidates) {
      const { input, userId, event } = candidate;
      const pair = `${event.id}:${userId}`;
      if (candidate.repeated || leftEvents.has(event.id) || active.has(pair) || assigned.has(`${userId}:${event.id}`)) {
        leftEvents.add(event.id);
        continue;
      }
      const key = `${event.id}:${input.attendance_method}`;
      let count = counts.get(key);
      if (!count) counts.set(key, (count = { ...event.enrollmentCounts[input.attendance_method] }));
      let decision;
      try {
        decision = decideEnrollment({
          method: input.attendance_method,
          offered: offeredMethods(event.settings),
          capacity: { ...limitsFor(event.settings, input.attendance_method), ...count },
          existingActive: null,
          acceptWaitlist: input.accept_waitlist ?? false,
        });
      } catch (error) {
        // refused (full, no wait list, method not offered): takes no seat, so later items go on
        if (!isLecternError(error)) throw error;
        answers[candidate.index] = error;
        continue;
      }
      if (decision.outcome === 'existing') continue;
      count[decision.outcome]++;
      decided.push({ ...candidate, status: decision.outcome, events: decision.events });
    }
    if (decided.length === 0) return answers;

    // the owned assignments first, pointing at ids taken for the enrollments, which are then
    // written complete (an update linking them afterwards rewrote every row of the batch)
    const ids = await tx.enrollments.reserveIds(decided.length);
    const owned = await this.assignments.createMissing(
      tx,
      ctx,
      decided.map(({ userId, event }, i) => ({ userId, contentId: event.id, dueDate: null, expiresAt: null, enrollmentId: ids[i]! })),
    );
    // no live assignment was found above, and the transaction holds the write lock
    if (owned.some((record) => record === undefined)) throw new Error('an enrollment’s assignment appeared mid-batch');
    const now = nowIso(this.deps.clock);
    await tx.enrollments.insertMany(
      decided.map(({ userId, event, input, status }, i) => ({
        id: ids[i]!,
        publicId: this.deps.ids.uuid(),
        userId,
        eventId: event.id,
        method: input.attendance_method,
        status,
        created: now,
        assignmentId: owned[i]!.id,
      })),
    );
    const records = await tx.enrollments.findByIds(ids);
    await this.deps.outbox.record(tx, ...records.flatMap((record, i) => decided[i]!.events.map((type) => ({ type, object: record.view }))));
    await this.deps.audit.recordMany(
      tx,
      ctx,
      'enrollment.created',
      records.map((record) => record.view.public_id),
    );
    records.forEach((record, i) => (answers[decided[i]!.index] = { publicId: record.view.public_id, created: true }));
    return answers;
  }

  /**
   * The assignment a new enrollment owns (docs/events.md), starting at not_started. The user may
   * already have one for the event: a dropped one (from an earlier enrollment, or dropped on its
   * own) is history, so it is deleted and a fresh one created; any other is taken over as it is.
   */
  private async ownAssignment(tx: Stores, ctx: RequestContext, userId: number, event: EventRecord, enrollmentId: number): Promise<number> {
    let live = await this.assignments.findLive(tx, userId, event.id);
    if (live && live.data.state === 'dropped') {
      await this.assignments.delete(tx, ctx, live);
      live = undefined;
    }
    if (!live) return (await this.assignments.ensure(tx, ctx, { userId, contentId: event.id, enrollmentId })).record.id;
    if (live.enrollmentId !== enrollmentId) await this.assignments.attachToEnrollment(tx, ctx, live, enrollmentId);
    return live.id;
  }

  /** Writes an action's change, moves the owned assignment, records events, and fills a freed seat. */
  private async applyChange(
    tx: Stores,
    ctx: RequestContext,
    current: EnrollmentRecord,
    change: EnrollmentChange,
  ): Promise<EnrollmentRecord> {
    if (!change.changed) return current;
    const now = nowIso(this.deps.clock);
    await tx.enrollments.update(current.id, { status: change.next.status, checkinDatetime: change.next.checkin_datetime, modified: now });
    if (change.assignment) {
      const owned = await this.assignments.findById(tx, current.assignmentId);
      const move = owned && ownedAssignmentChange(lifecycleOf(owned), change.assignment, now);
      if (owned && move) await this.assignments.commitMove(tx, ctx, owned, move);
    }
    const after = (await tx.enrollments.findById(current.id))!;
    await this.deps.outbox.record(tx, ...change.events.map((type) => ({ type, object: after.view })));
    await this.deps.audit.recordUpdate(tx, ctx, 'enrollment.updated', after.view.public_id, current.view, after.view);
    const event = change.freesSeat ? await findEventAnyVisibility(tx, current.eventId) : undefined;
    // a deleted event has no seats to give
    if (event) await this.waitlist.fillFreedSeats(tx, ctx, event, [current.method]);
    return after;
  }

  /** An enrollment the actor may see: role `user` sees only its own; everything else is 404. */
  private async require(stores: Stores, actor: Actor, publicId: string): Promise<EnrollmentRecord> {
    const record = isUuid(publicId) ? await stores.enrollments.findByPublicId(publicId) : undefined;
    if (!record || (isLearner(actor) && record.userId !== actor.userId)) throw notFound('Enrollment');
    return record;
  }
}
