import { z } from 'zod';
import { authorize, type RequestContext } from '../auth/actor.ts';

import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';

import { assertIfMatch } from '../shared/etag.ts';

import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { batchItemsField, runSyncBatch, type SyncBatchResult } from '../shared/sync-batch.ts';
import { parseArgument, parseInput, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';

import {
  contentListSpec,
  createContentInputs,
  replaceTagsInput,
  summaryOf,
  tagNamesField,
  tagOperations,
  tagsInput,
  typedContentListSpec,
  typeViewOf,
  updateContentInputs,
  updateContentItemInput,
  type ContentRecord,
  type ContentSummary,
  type ContentType,
  type ContentTypeView,
  type ContentWrite,
  type CreateContentInput,
  type TagOperation,
  type UpdateContentInput,
} from './content-item.ts';
import { contentTypes } from './content-types.ts';
import { type ContentWrites } from './content-writes.ts';
import { assertScheduleOrder, nextTagSet, sameTagSet, viewerFor } from './content-rules.ts';

const bulkArchiveInput = z.strictObject({ items: batchItemsField() });
const bulkTagsInput = z.strictObject({ items: batchItemsField(), tags: tagNamesField().min(1) });
const bulkReplaceTagsInput = z.strictObject({ items: batchItemsField(), tags: tagNamesField() });

export class ContentService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly writes: ContentWrites,
  ) {}

  /** `GET /content-items/`: summaries of every type. `narrowing` is a saved report's. */
  async list(ctx: RequestContext, params: QueryParams, narrowing: ListNarrowing = {}): Promise<ListResult<ContentSummary>> {
    authorize(ctx.actor, 'content:read');
    const query = parseListQuery(contentListSpec, params);
    return toListResult(query, await this.deps.storage.content.list(query, viewerFor(ctx.actor), narrowing), summaryOf);
  }

  /** `GET /articles/`, `/videos/`, …: one type, in its own richer shape. */
  async listOfType(ctx: RequestContext, type: ContentType, params: QueryParams): Promise<ListResult<ContentTypeView>> {
    authorize(ctx.actor, 'content:read');
    const contentType = parseArgument('type', contentTypes, type);
    const query = parseListQuery(typedContentListSpec, params);
    return toListResult(query, await this.deps.storage.content.list(query, viewerFor(ctx.actor), { contentType }), typeViewOf);
  }

  async get(ctx: RequestContext, publicId: string): Promise<ContentSummary> {
    authorize(ctx.actor, 'content:read');
    return (await this.writes.requireVisible(this.deps.storage, ctx.actor, publicId)).summary;
  }

  async getOfType(ctx: RequestContext, type: ContentType, publicId: string): Promise<ContentTypeView> {
    authorize(ctx.actor, 'content:read');
    return typeViewOf(await this.writes.requireVisible(this.deps.storage, ctx.actor, publicId, parseArgument('type', contentTypes, type)));
  }

  /** `body` is typed per `type`: `create(ctx, 'link', { name, url })`, and a field the type lacks does not compile. */
  async create<T extends ContentType>(ctx: RequestContext, type: T, body: NoInfer<CreateContentInput<T>>): Promise<ContentTypeView> {
    authorize(ctx.actor, 'content:write');
    parseArgument('type', contentTypes, type);
    if (this.writes.hasTypedView(type))
      throw new Error(`${type} items are created by the events area, which adds their schedule and settings.`);
    const input = parseInput(createContentInputs[type], body);
    assertScheduleOrder(input.starts_on ?? null, input.ends_on ?? null);
    return this.deps.storage.transaction(async (tx) => {
      const record = await this.writes.insertItem(tx, type, input);
      await this.writes.recordLifecycle(tx, ctx, 'created', record);
      return typeViewOf(record);
    });
  }

  /** `PATCH /content-items/<id>/`: shared fields of an item of any type; answers the summary. */
  update(
    ctx: RequestContext,
    publicId: string,
    body: InputOf<typeof updateContentItemInput>,
    options: WriteOptions = {},
  ): Promise<ContentSummary> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(updateContentItemInput, body);
    return this.patch(ctx, publicId, undefined, input, options, summaryOf);
  }

  /** `PATCH /<type collection>/<id>/`: shared and type-specific fields; answers the type's shape. */
  updateOfType<T extends ContentType>(
    ctx: RequestContext,
    type: T,
    publicId: string,
    body: NoInfer<UpdateContentInput<T>>,
    options: WriteOptions = {},
  ): Promise<ContentTypeView> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(updateContentInputs[parseArgument('type', contentTypes, type)], body);
    return this.patch(ctx, publicId, type, input, options, typeViewOf);
  }

  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'content:write');
    await this.deps.storage.transaction(async (tx) => {
      const current = await this.writes.requireVisible(tx, ctx.actor, publicId);
      assertIfMatch(options.ifMatch, current.summary);
      await this.writes.removeItem(tx, ctx, current);
    });
  }

  /** `GET /content-items/<id>/tags/`. */
  async tags(ctx: RequestContext, publicId: string): Promise<{ data: string[] }> {
    authorize(ctx.actor, 'content:read');
    return { data: (await this.writes.requireVisible(this.deps.storage, ctx.actor, publicId)).summary.tags };
  }

  /** `POST` (add), `DELETE` (remove) and `PUT` (replace) on `/content-items/<id>/tags/`. */
  async changeTags(
    ctx: RequestContext,
    publicId: string,
    op: TagOperation,
    body: InputOf<typeof tagsInput> | InputOf<typeof replaceTagsInput>,
  ): Promise<{ data: string[] }> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(parseArgument('op', tagOperations, op) === 'replace' ? replaceTagsInput : tagsInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.writes.requireVisible(tx, ctx.actor, publicId);
      return { data: (await this.retag(tx, ctx, current, op, input.tags)).summary.tags };
    });
  }

  /** `POST /content-items/bulk/archive/` and `/unarchive/`; both idempotent per item. */
  async bulkSetArchived(ctx: RequestContext, archived: boolean, body: InputOf<typeof bulkArchiveInput>): Promise<SyncBatchResult> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(bulkArchiveInput, body);
    return runSyncBatch(this.deps.storage, ctx, input.items, async (tx, item) => {
      const current = await this.writes.requireVisible(tx, ctx.actor, item.public_id);
      if (current.summary.is_archived === archived) return;
      await tx.content.update(current.id, { isArchived: archived });
      await this.writes.commitChange(tx, ctx, current, archived ? 'archived' : 'unarchived');
    });
  }

  /** `POST`, `DELETE` and `PUT /content-items/bulk/tags/`: one tag operation over many items. */
  async bulkTags(
    ctx: RequestContext,
    op: TagOperation,
    body: InputOf<typeof bulkTagsInput> | InputOf<typeof bulkReplaceTagsInput>,
  ): Promise<SyncBatchResult> {
    authorize(ctx.actor, 'content:write');
    const input = parseInput(parseArgument('op', tagOperations, op) === 'replace' ? bulkReplaceTagsInput : bulkTagsInput, body);
    return runSyncBatch(this.deps.storage, ctx, input.items, async (tx, item) => {
      await this.retag(tx, ctx, await this.writes.requireVisible(tx, ctx.actor, item.public_id), op, input.tags);
    });
  }

  private patch<V>(
    ctx: RequestContext,
    publicId: string,
    type: ContentType | undefined,
    input: ContentWrite,
    options: WriteOptions,
    view: (record: ContentRecord) => V,
  ): Promise<V> {
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.writes.requireVisible(tx, ctx.actor, publicId, type);
      assertIfMatch(options.ifMatch, view(current));
      assertScheduleOrder(
        input.starts_on === undefined ? current.extras.starts_on : input.starts_on,
        input.ends_on === undefined ? current.extras.ends_on : input.ends_on,
      );
      await this.writes.writeItem(tx, current, input);
      return view(await this.writes.commitChange(tx, ctx, current, 'updated'));
    });
  }

  private async retag(
    tx: Stores,
    ctx: RequestContext,
    current: ContentRecord,
    op: TagOperation,
    names: readonly string[],
  ): Promise<ContentRecord> {
    const next = nextTagSet(current.summary.tags, op, names);
    if (sameTagSet(next, current.summary.tags)) return current;
    await tx.content.setTags(current.id, next);
    return this.writes.commitChange(tx, ctx, current, 'updated');
  }
}
