import { BulkJobs, type BulkFamily } from '../jobs/bulk-jobs.ts';
import { requireUserReference, userIdsOf } from '../users/user-references.ts';
import { authorize, isLearner, type Actor, type RequestContext } from '../auth/actor.ts';
import type { ContentRecord } from '../content/content-item.ts';
import { viewerFor } from '../content/content-rules.ts';
import type { ContentWrites } from '../content/content-writes.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { AppliedItem } from '../jobs/job.ts';

import type { AssignmentChanges } from '../ports/assignment-store.ts';
import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso, todayUtc } from '../shared/clock.ts';
import { conflict, forbidden, notFound } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { noBodyInput } from '../shared/schema.ts';
import { parseArgument, parseInput, type InputOf, type BulkInputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import {
  assignmentListSpec,
  assignmentRouteActions,
  assignmentView,
  createAssignmentInput,
  dropInput,
  feedbackInput,
  lastModifiedOf,
  lifecycleOf,
  progressInput,
  updateAssignmentInput,
  type Assignment,
  type AssignmentRecord,
  type AssignmentRouteAction,
  type CreateAssignmentInput,
} from './assignment.ts';
import { applyAction, applyProgress } from './assignment-machine.ts';
import { type AssignmentWrites } from './assignment-writes.ts';
import { expandTrack, isTrack } from './track-expansion.ts';

export const MAX_BULK_ASSIGNMENTS = 200;
const assignmentBulk: BulkFamily = {
  name: 'assignments',
  maxItems: MAX_BULK_ASSIGNMENTS,
  scopes: { write: 'assignments:write', read: 'assignments:read' },
};

/** What learners (role `user`) may do to their own assignments (docs/api.md). */
type LearnerOperation = 'create' | 'drop' | 'progress' | 'feedback';
const learnerMay = new Set<string>(['create', 'drop', 'progress', 'feedback'] satisfies LearnerOperation[]);

export interface CreateResult {
  assignment: Assignment;
  /** false when the pair already had an assignment (200 rather than 201) */
  created: boolean;
}

export interface ReadResult {
  assignment: Assignment;
  /** when the representation last changed, for `Last-Modified` / `If-Modified-Since` */
  lastModified: string;
}

export class AssignmentService {
  /** `…/bulk/` routes: submit a job of this area's items, read it and its items */
  readonly bulk: BulkJobs<BulkInputOf<'assignments', typeof createAssignmentInput>>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentWrites,
    private readonly writes: AssignmentWrites,
    private readonly jobs: JobEngine,
  ) {
    this.bulk = new BulkJobs(jobs, assignmentBulk, {
      handle: async (tx, ctx, item) => {
        const { record, created } = await this.createInTx(tx, ctx, parseInput(createAssignmentInput, item));
        return { publicId: record.data.public_id, created };
      },
    });
  }

  private today(): string {
    return todayUtc(this.deps.clock);
  }

  /** `narrowing` is a saved report's (see SavedReportService.results); learners still see only their own. */
  async list(ctx: RequestContext, params: QueryParams, narrowing: ListNarrowing = {}): Promise<ListResult<Assignment>> {
    authorize(ctx.actor, 'assignments:read');
    const query = parseListQuery(assignmentListSpec, params);
    const today = this.today();
    const ownerId = isLearner(ctx.actor) ? ctx.actor.userId : null;
    const page = await this.deps.storage.assignments.list(query, { ...narrowing, ownerId, today });
    return toListResult(query, page, (record) => assignmentView(record, today));
  }

  async get(ctx: RequestContext, publicId: string): Promise<ReadResult> {
    authorize(ctx.actor, 'assignments:read');
    const record = await this.require(this.deps.storage, ctx.actor, publicId);
    const today = this.today();
    return { assignment: assignmentView(record, today), lastModified: lastModifiedOf(record, today) };
  }

  /** `POST /assignments/`: create-or-get; assigning a track also creates-or-gets its items' assignments. */
  async create(ctx: RequestContext, body: InputOf<typeof createAssignmentInput>): Promise<CreateResult> {
    authorize(ctx.actor, 'assignments:write');
    const input = parseInput(createAssignmentInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const { record, created } = await this.createInTx(tx, ctx, input);
      return { assignment: assignmentView(record, this.today()), created };
    });
  }

  async update(
    ctx: RequestContext,
    publicId: string,
    body: InputOf<typeof updateAssignmentInput>,
    options: WriteOptions = {},
  ): Promise<Assignment> {
    authorize(ctx.actor, 'assignments:write');
    const input = parseInput(updateAssignmentInput, body);
    return this.write(ctx, publicId, 'update', options, async (tx, current) => {
      if (current.enrollmentId !== null) {
        throw conflict('enrollment_managed', 'An enrollment manages this assignment; change the enrollment instead.');
      }
      const changes: Omit<AssignmentChanges, 'modified'> = {};
      if (input.due_date !== undefined && input.due_date !== current.data.due_date) changes.dueDate = input.due_date;
      if (input.expires_at !== undefined && input.expires_at !== current.data.expires_at) changes.expiresAt = input.expires_at;
      // a PATCH that changes nothing leaves no trace, as everywhere else
      if (Object.keys(changes).length === 0) return current;
      return this.writes.commit(tx, ctx, current, changes, 'assignment.updated');
    });
  }

  /** The five administrative actions: `complete`, `drop`, `exempt`, `undo-complete`, `undo-exempt`. */
  async act(
    ctx: RequestContext,
    publicId: string,
    action: AssignmentRouteAction,
    body: InputOf<typeof dropInput> = {},
    options: WriteOptions = {},
  ): Promise<Assignment> {
    authorize(ctx.actor, 'assignments:write');
    parseArgument('action', assignmentRouteActions, action);
    let reason: string | null = null;
    if (action === 'drop') reason = parseInput(dropInput, body).reason ?? null;
    else parseInput(noBodyInput, body);
    return this.write(ctx, publicId, action, options, async (tx, current) => {
      const change = applyAction(lifecycleOf(current), action, nowIso(this.deps.clock));
      return this.writes.commitLifecycle(tx, ctx, current, change, {
        ...(action === 'drop' ? { dropReason: reason } : {}),
        // reopening a completed assignment starts the learner's next attempt
        ...(action === 'undo-complete' ? { attempt: current.data.attempt + 1 } : {}),
      });
    });
  }

  /** `POST /assignments/<id>/progress/`: learner engagement (docs/assignments.md). */
  async progress(
    ctx: RequestContext,
    publicId: string,
    body: InputOf<typeof progressInput>,
    options: WriteOptions = {},
  ): Promise<Assignment> {
    authorize(ctx.actor, 'assignments:write');
    const input = parseInput(progressInput, body);
    return this.write(ctx, publicId, 'progress', options, async (tx, current) => {
      const change = applyProgress(
        lifecycleOf(current),
        { progress: input.progress },
        {
          now: nowIso(this.deps.clock),
          isCompletable: current.isCompletable,
        },
      );
      return this.writes.commitLifecycle(tx, ctx, current, change, {
        ...(input.score !== undefined ? { score: input.score } : {}),
        ...(input.is_success !== undefined ? { isSuccess: input.is_success } : {}),
      });
    });
  }

  /** `POST /assignments/<id>/feedback/`: a new rating (and optional review) replaces the previous one. */
  async feedback(
    ctx: RequestContext,
    publicId: string,
    body: InputOf<typeof feedbackInput>,
    options: WriteOptions = {},
  ): Promise<Assignment> {
    authorize(ctx.actor, 'assignments:write');
    const input = parseInput(feedbackInput, body);
    const text = input.text === undefined || input.text === null || input.text.trim() === '' ? null : input.text;
    return this.write(ctx, publicId, 'feedback', options, async (tx, current) => {
      if (current.data.feedback_rating === input.rating && current.data.feedback_text === text) return current;
      return this.writes.commit(tx, ctx, current, { feedbackRating: input.rating, feedbackText: text }, 'assignment.updated');
    });
  }

  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'assignments:write');
    await this.write(ctx, publicId, 'delete', options, async (tx, current) => {
      if (current.enrollmentId !== null) {
        throw conflict('enrollment_managed', 'An enrollment manages this assignment; drop the enrollment instead.');
      }
      await this.writes.delete(tx, ctx, current);
      return current;
    });
  }

  // ---- internals ------------------------------------------------------------------------------

  /** The create-or-get rules of `POST /assignments/`, shared by the bulk job's items. */
  private async createInTx(
    tx: Stores,
    ctx: RequestContext,
    input: CreateAssignmentInput,
  ): Promise<{ record: AssignmentRecord; created: boolean }> {
    const actor = ctx.actor;
    if (isLearner(actor) && input.user_id !== actor.publicId) throw forbidden('You may only assign content to yourself.');
    const user = await requireUserReference(tx, input.user_id, 'user_id');
    const content = await this.content.requireVisible(tx, actor, input.content_item_id);
    const existing = await tx.assignments.findLive(user.id, content.id);
    // a create-or-get that finds the pair returns it whatever has changed since, so retries are safe
    if (!existing) this.assertMayAssign(actor, content);
    const result = existing
      ? { record: existing, created: false }
      : await this.writes.ensure(tx, ctx, {
          userId: user.id,
          contentId: content.id,
          dueDate: input.due_date ?? null,
          expiresAt: input.expires_at ?? null,
        });
    if (!isTrack(content.contentType)) return result;
    if (!content.summary.is_archived) await this.expandInTx(tx, ctx, user.id, content, input);
    // the learner may have done the items before the track was assigned; expansion may have moved it
    const track = await this.writes.followItemsOf(tx, ctx, (await tx.assignments.findById(result.record.id))!, false);
    return { record: track, created: result.created };
  }

  /**
   * An import's batch of items, where the create-or-get rules reduce to an insert: the items whose
   * user and content exist, whose content is neither a track nor held by one, and which a staff
   * member assigns. Those are answered (found, for a pair with a live assignment); the rest
   * are left undefined, for the bulk item's write (`bulk`) to decide one by one, errors included.
   * The items have passed `createAssignmentInput` already (the import's row check, its user named
   * by public id), so they are not parsed again. `knownUsers`: users the caller looked up in this
   * transaction (public id to id), not looked up again.
   */
  async createManyInTx(
    tx: Stores,
    ctx: RequestContext,
    inputs: readonly CreateAssignmentInput[],
    knownUsers?: ReadonlyMap<string, number>,
  ): Promise<Array<AppliedItem | undefined>> {
    const answers: Array<AppliedItem | undefined> = inputs.map(() => undefined);
    if (isLearner(ctx.actor)) return answers;
    const userIds = await userIdsOf(
      tx,
      inputs.flatMap((input) => (input ? [input.user_id] : [])),
      knownUsers,
    );
    const named = [...new Set(inputs.flatMap((input) => (input && isUuid(input.content_item_id) ? [input.content_item_id] : [])))];
    // a track, an archived item, or an item a track holds is the item write's to decide
    const contents = await tx.content.assignTargets(named, viewerFor(ctx.actor));
    for (const [publicId, content] of contents) {
      if (isTrack(content.contentType) || content.isArchived || content.heldByTrack) contents.delete(publicId);
    }

    const plain: Array<{ index: number; userId: number; contentId: number; dueDate: string | null; expiresAt: string | null }> = [];
    const seen = new Set<string>();
    inputs.forEach((input, index) => {
      const userId = input && userIds.get(input.user_id);
      const content = input && contents.get(input.content_item_id);
      if (!input || userId === undefined || !content) return;
      const pair = `${userId}:${content.id}`;
      // a pair named twice is left to the item write, which answers the second as existing
      if (seen.has(pair)) return;
      seen.add(pair);
      plain.push({ index, userId, contentId: content.id, dueDate: input.due_date ?? null, expiresAt: input.expires_at ?? null });
    });
    const records = await this.writes.createMissing(
      tx,
      ctx,
      plain.map(({ userId, contentId, dueDate, expiresAt }) => ({ userId, contentId, dueDate, expiresAt })),
    );
    const existing = plain.filter((_, i) => records[i] === undefined);
    const live = await tx.assignments.livePublicIds(existing);
    plain.forEach((pair, i) => {
      const publicId = records[i]?.data.public_id ?? live.get(`${pair.userId}:${pair.contentId}`);
      if (publicId !== undefined) answers[pair.index] = { publicId, created: records[i] !== undefined };
    });
    return answers;
  }

  private assertMayAssign(actor: Actor, content: ContentRecord): void {
    if (content.summary.is_archived) throw conflict('archived', 'This content item is archived and cannot be newly assigned.');
    if (isLearner(actor) && !content.summary.is_self_assignable) throw forbidden('This content item cannot be self-assigned.');
  }

  /** Creates-or-gets the assignments of a track's items (nested tracks too). */
  private async expandInTx(
    tx: Stores,
    ctx: RequestContext,
    userId: number,
    content: ContentRecord,
    input: CreateAssignmentInput,
  ): Promise<void> {
    const graph = await tx.assignments.trackGraph(content.id, viewerFor(ctx.actor));
    for (const itemId of expandTrack(content.id, graph)) {
      await this.writes.ensure(tx, ctx, {
        userId,
        contentId: itemId,
        dueDate: input.due_date ?? null,
        expiresAt: input.expires_at ?? null,
      });
    }
  }

  /** An assignment the actor may see: role `user` sees only its own; everything else is 404. */
  private async require(stores: Stores, actor: Actor, publicId: string): Promise<AssignmentRecord> {
    const record = isUuid(publicId) ? await stores.assignments.findByPublicId(publicId) : undefined;
    if (!record || (isLearner(actor) && record.userId !== actor.userId)) throw notFound('Assignment');
    return record;
  }

  /** Every write on one assignment: visibility, the learner's allowed operations, If-Match, then `work`. */
  private write(
    ctx: RequestContext,
    publicId: string,
    operation: string,
    options: WriteOptions,
    work: (tx: Stores, current: AssignmentRecord) => Promise<AssignmentRecord>,
  ): Promise<Assignment> {
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, ctx.actor, publicId);
      if (isLearner(ctx.actor) && !learnerMay.has(operation)) {
        throw forbidden(`Your role (user) may not ${operation === 'update' ? 'edit' : operation} assignments.`);
      }
      assertIfMatch(options.ifMatch, assignmentView(current, this.today()));
      return assignmentView(await work(tx, current), this.today());
    });
  }
}
