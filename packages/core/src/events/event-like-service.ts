import { BulkJobs, type BulkFamily } from '../jobs/bulk-jobs.ts';
import type { z } from 'zod';
import { authorize, type Actor, type RequestContext } from '../auth/actor.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { AppliedItem } from '../jobs/job.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { assertIfMatch } from '../shared/etag.ts';
import type { ListResult, ListSpec, QueryParams } from '../shared/list-query.ts';
import { parseInput, type BulkInputOf, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import type { EventKind, EventRecord } from './event.ts';
import type { EventItems } from './event-items.ts';
import { facilitatorsView, type Facilitators, type facilitatorsInput } from './facilitators.ts';
import type { ListNarrowing } from '../ports/list-narrowing.ts';

/** Items per bulk PATCH (spec Limits). */
export const MAX_BULK_EVENT_UPDATES = 200;

/**
 * How one kind (events or series) reads and updates; the base class does the rest alike. Its
 * schemas' own types (`U`, `B`) and wrapper key (`K`) type what embedders pass.
 */
export interface EventLikeKind<V, W, U extends z.ZodType<W>, B extends z.ZodType<W & { public_id: string }>, K extends string> {
  kind: EventKind;
  /** the bulk PATCH's job kind, which is also its wrapper key (`events`, `event_series`) */
  jobKind: K;
  listSpec: ListSpec;
  view: (record: EventRecord) => V;
  updateInput: U;
  /** a PATCH body plus `public_id`, for the bulk update */
  bulkItemInput: B;
}

/**
 * What `/events/` and `/event-series/` offer alike: list, get, PATCH (and its bulk item), DELETE
 * and the facilitators sub-resource, with the events scopes. Subclasses add create and say how
 * a PATCH applies.
 */
export abstract class EventLikeService<
  V,
  W extends object,
  U extends z.ZodType<W>,
  B extends z.ZodType<W & { public_id: string }>,
  K extends string,
> {
  /** `PATCH /events/bulk/`, `PATCH /event-series/bulk/` and the job they start */
  readonly bulk: BulkJobs<BulkInputOf<K, B>>;

  constructor(
    protected readonly deps: ServiceDeps,
    protected readonly items: EventItems,
    private readonly jobs: JobEngine,
    private readonly shape: EventLikeKind<V, W, U, B, K>,
  ) {
    const family: BulkFamily = {
      name: shape.jobKind,
      maxItems: MAX_BULK_EVENT_UPDATES,
      scopes: { write: 'events:write', read: 'events:read' },
    };
    this.bulk = new BulkJobs(jobs, family, { handle: (tx, ctx, item) => this.bulkUpdateItem(tx, ctx, item) });
  }

  /** A create: the events scope, the body read with `input`, then `insert` in one transaction, as the kind's view. */
  protected createWith<I extends z.ZodType>(
    ctx: RequestContext,
    input: I,
    body: unknown,
    insert: (tx: Stores, input: z.output<I>) => Promise<EventRecord>,
  ): Promise<V> {
    authorize(ctx.actor, 'events:write');
    const parsed = parseInput(input, body);
    return this.deps.storage.transaction(async (tx) => this.shape.view(await insert(tx, parsed)));
  }

  /** Applies a validated PATCH body to `current` and answers the stored result. */
  protected abstract applyUpdate(tx: Stores, ctx: RequestContext, current: EventRecord, input: W): Promise<EventRecord>;

  /** `narrowing` is a saved report's (see SavedReportService.results). */
  async list(ctx: RequestContext, params: QueryParams, narrowing: ListNarrowing = {}): Promise<ListResult<V>> {
    authorize(ctx.actor, 'events:read');
    return this.items.list(this.deps.storage, ctx.actor, this.shape.kind, this.shape.listSpec, params, this.shape.view, narrowing);
  }

  async get(ctx: RequestContext, publicId: string): Promise<V> {
    authorize(ctx.actor, 'events:read');
    return this.shape.view(await this.require(this.deps.storage, ctx.actor, publicId));
  }

  async update(ctx: RequestContext, publicId: string, body: InputOf<U>, options: WriteOptions = {}): Promise<V> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(this.shape.updateInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, ctx.actor, publicId);
      assertIfMatch(options.ifMatch, this.shape.view(current));
      return this.shape.view(await this.applyUpdate(tx, ctx, current, input));
    });
  }

  /**
   * One item of the kind's bulk PATCH, run by the job engine inside the transaction it gives the
   * item: throws (422/404/…) for an item that fails, which the job counts and moves past.
   */
  async bulkUpdateItem(tx: Stores, ctx: RequestContext, item: unknown): Promise<AppliedItem> {
    const { public_id: publicId, ...input } = parseInput(this.shape.bulkItemInput, item);
    await this.applyUpdate(tx, ctx, await this.require(tx, ctx.actor, publicId), input as unknown as W);
    return { publicId, created: false };
  }

  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'events:write');
    await this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, ctx.actor, publicId);
      assertIfMatch(options.ifMatch, this.shape.view(current));
      await this.items.remove(tx, ctx, current);
    });
  }

  async facilitators(ctx: RequestContext, publicId: string): Promise<Facilitators> {
    authorize(ctx.actor, 'events:read');
    return facilitatorsView((await this.require(this.deps.storage, ctx.actor, publicId)).facilitators);
  }

  async replaceFacilitators(ctx: RequestContext, publicId: string, body: InputOf<typeof facilitatorsInput>): Promise<Facilitators> {
    authorize(ctx.actor, 'events:write');
    return this.deps.storage.transaction(async (tx) =>
      this.items.replaceFacilitators(tx, ctx, await this.require(tx, ctx.actor, publicId), body),
    );
  }

  protected require(stores: Stores, actor: Actor, publicId: string): Promise<EventRecord> {
    return this.items.require(stores, actor, publicId, this.shape.kind);
  }
}
