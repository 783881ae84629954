/**
 * The content building blocks that run inside a transaction someone else opened: the content
 * area's own use cases (content-service.ts), the events area (which creates, edits and deletes
 * events and event series through them, after its own authorization) and the assignments area
 * (which assigns only what the actor may see) all go through here. They write the content row and
 * its relations, and record nothing until told to.
 */
import { fieldChanges, type FieldChanges } from '../audit/audit-diff.ts';
import type { Actor, RequestContext } from '../auth/actor.ts';
import { everyItem } from '../ports/content-store.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { conflict, fieldError, notFound } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { contentTypeEventPrefix, type ContentLifecycleAction } from './content-events.ts';
import { typeViewOf, type ContentRecord, type ContentType, type ContentWrite } from './content-item.ts';
import { assertDistinctIds, assertNoContainmentCycle, mediaStatusFor, nextTagSet, viewerFor } from './content-rules.ts';

/** The internal ids a write refers to; undefined where the body left the reference alone. */
interface ResolvedReferences {
  channelId?: number | null;
  groupIds?: number[];
  itemIds?: number[];
}

/** Builds the payload of a type's own `<type>.*` events from its content record, inside the transaction. */
export type TypedView = (stores: Stores, record: ContentRecord) => Promise<unknown>;

export class ContentWrites {
  private readonly typedViews = new Map<ContentType, TypedView>();

  constructor(private readonly deps: ServiceDeps) {}

  /**
   * For the assignments area: the item `actor` wants to assign, inside the caller's transaction.
   * 404 when the actor may not see it; 409 `archived` because archived content takes no new assignments.
   */
  async requireAssignable(tx: Stores, actor: Actor, publicId: string): Promise<ContentRecord> {
    const record = await this.requireVisible(tx, actor, publicId);
    if (record.summary.is_archived) throw conflict('archived', 'This content item is archived and cannot be newly assigned.');
    return record;
  }

  /** An item the actor may see, optionally of one type; everything else is 404 so nothing leaks. */
  async requireVisible(stores: Stores, actor: Actor, publicId: string, type?: ContentType): Promise<ContentRecord> {
    const record = isUuid(publicId) ? await stores.content.findByPublicId(publicId, viewerFor(actor)) : undefined;
    if (!record || (type !== undefined && record.contentType !== type)) throw notFound('Content item');
    return record;
  }

  /** Inserts an item of `type` with its tags, groups and items; resolves the public ids it names (422 otherwise). */
  async insertItem(tx: Stores, type: ContentType, input: ContentWrite): Promise<ContentRecord> {
    const refs = await this.resolveReferences(tx, input, null);
    const mediaAssetId = input.media_asset_id ?? null;
    const id = await tx.content.insert({
      publicId: this.deps.ids.uuid(),
      contentType: type,
      name: input.name!,
      description: input.description ?? '',
      isHidden: input.is_hidden ?? false,
      isSelfAssignable: input.is_self_assignable ?? true,
      isCompletable: input.is_completable ?? true,
      durationMinutes: input.duration ?? 0,
      channelId: refs.channelId ?? null,
      url: input.url ?? null,
      mediaAssetId,
      mediaStatus: mediaStatusFor(mediaAssetId),
      startsOn: input.starts_on ?? null,
      endsOn: input.ends_on ?? null,
      created: nowIso(this.deps.clock),
    });
    await this.writeRelations(tx, id, input, refs);
    return (await tx.content.findById(id, everyItem))!;
  }

  /** Writes the fields `input` carries to an existing item; it does not stamp `modified` (see markChanged). */
  async writeItem(tx: Stores, current: ContentRecord, input: ContentWrite): Promise<void> {
    const refs = await this.resolveReferences(tx, input, current);
    const assetChanged = input.media_asset_id !== undefined && input.media_asset_id !== current.extras.media_asset_id;
    await tx.content.update(current.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.is_hidden !== undefined ? { isHidden: input.is_hidden } : {}),
      ...(input.is_self_assignable !== undefined ? { isSelfAssignable: input.is_self_assignable } : {}),
      ...(input.is_completable !== undefined ? { isCompletable: input.is_completable } : {}),
      ...(input.duration !== undefined ? { durationMinutes: input.duration } : {}),
      ...(refs.channelId !== undefined ? { channelId: refs.channelId } : {}),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(assetChanged
        ? { mediaAssetId: input.media_asset_id!, mediaStatus: mediaStatusFor(input.media_asset_id!), mediaDuration: null }
        : {}),
      ...(input.starts_on !== undefined ? { startsOn: input.starts_on } : {}),
      ...(input.ends_on !== undefined ? { endsOn: input.ends_on } : {}),
    });
    await this.writeRelations(tx, current.id, input, refs);
  }

  /**
   * Stamps `modified` on an item whose representation changed and records its `updated` (or other)
   * events and its audit entry with `changes`, the fields the caller saw change.
   */
  async markChanged(
    tx: Stores,
    ctx: RequestContext,
    id: number,
    action: ContentLifecycleAction,
    changes: FieldChanges | null,
  ): Promise<ContentRecord> {
    await tx.content.update(id, { modified: nowIso(this.deps.clock) });
    const after = (await tx.content.findById(id, everyItem))!;
    await this.recordLifecycle(tx, ctx, action, after, changes);
    return after;
  }

  /** Soft-deletes an item and records its `deleted` events, carrying the item as it was just before. */
  async removeItem(tx: Stores, ctx: RequestContext, current: ContentRecord): Promise<void> {
    // a track's learners would silently lose a session they may be enrolled in (spec 409 table)
    if (current.contentType === 'event' && (await tx.content.heldByTrack(current.id))) {
      throw conflict('referenced_by_track', 'A track lists this event; remove it from the track before deleting it.');
    }
    // the typed payload is read before the row disappears from reads
    const events = await this.lifecycleEvents(tx, 'deleted', current);
    await tx.content.softDelete(current.id, nowIso(this.deps.clock));
    await this.deps.outbox.record(tx, ...events);
    await this.deps.audit.record(tx, ctx, 'content_item.deleted', current.summary.public_id);
  }

  /**
   * Records `content_item.<action>` with the summary and `<type>.<action>` with the type's own shape,
   * and the audit entry `content_item.<action>` (with `changes` for updates): every content change
   * of every area passes here.
   */
  async recordLifecycle(
    tx: Stores,
    ctx: RequestContext,
    action: ContentLifecycleAction,
    record: ContentRecord,
    changes: FieldChanges | null = null,
  ): Promise<void> {
    await this.deps.outbox.record(tx, ...(await this.lifecycleEvents(tx, action, record)));
    await this.deps.audit.record(tx, ctx, `content_item.${action}`, record.summary.public_id, changes);
  }

  /**
   * Lets the area that owns a type's richer shape (events, event series) supply it for the typed
   * webhook events, whichever path changed the item; that area also becomes the only creator of it.
   */
  registerTypedView(type: ContentType, view: TypedView): void {
    this.typedViews.set(type, view);
  }

  /** Whether another area owns the type's shape (and so creates its items itself). */
  hasTypedView(type: ContentType): boolean {
    return this.typedViews.has(type);
  }

  /**
   * After writes to `before`'s item: when its representation changed, stamps `modified` and
   * records the lifecycle events; a write that changed nothing leaves no trace and fires nothing.
   */
  async commitChange(tx: Stores, ctx: RequestContext, before: ContentRecord, action: ContentLifecycleAction): Promise<ContentRecord> {
    const written = (await tx.content.findById(before.id, everyItem))!;
    const changes = fieldChanges(typeViewOf(before), typeViewOf(written));
    if (changes === null) return written;
    return this.markChanged(tx, ctx, before.id, action, changes);
  }

  /** Checks the public ids a write names and turns them into internal ids (422 on the field otherwise). */
  private async resolveReferences(tx: Stores, input: ContentWrite, current: ContentRecord | null): Promise<ResolvedReferences> {
    const refs: ResolvedReferences = {};
    if (input.channel_id === null) refs.channelId = null;
    else if (input.channel_id !== undefined) {
      const channel = await tx.channels.findByPublicId(input.channel_id);
      if (!channel) throw fieldError('channel_id', 'No channel has this public_id.');
      refs.channelId = channel.id;
    }
    if (input.groups !== undefined) {
      const known = await tx.groups.idsByPublicIds(input.groups);
      const unknown = input.groups.filter((id) => !known.has(id));
      if (unknown.length > 0) throw fieldError('groups', `No group has these public_ids: ${unknown.join(', ')}.`);
      refs.groupIds = [...new Set(known.values())];
    }
    if (input.items !== undefined) {
      assertDistinctIds('items', input.items);
      const known = await tx.content.idsByPublicIds(input.items);
      const unknown = input.items.filter((id) => !known.has(id));
      if (unknown.length > 0) throw fieldError('items', `No content item has these public_ids: ${unknown.join(', ')}.`);
      refs.itemIds = input.items.map((id) => known.get(id)!);
      // a new item has no containers yet, so only an existing one can close a cycle
      if (current) assertNoContainmentCycle(current.id, refs.itemIds, await tx.content.containedBelow(refs.itemIds));
    }
    return refs;
  }

  private async writeRelations(tx: Stores, id: number, input: ContentWrite, refs: ResolvedReferences): Promise<void> {
    if (refs.groupIds !== undefined) await tx.content.setGroups(id, refs.groupIds);
    if (input.tags !== undefined) await tx.content.setTags(id, nextTagSet([], 'replace', input.tags));
    if (refs.itemIds !== undefined) await tx.content.setItems(id, refs.itemIds);
  }

  /** Every change fires the generic event with the summary and the type's event with its richer shape. */
  private async lifecycleEvents(tx: Stores, action: ContentLifecycleAction, record: ContentRecord) {
    const typed = this.typedViews.get(record.contentType);
    return [
      { type: `content_item.${action}`, object: record.summary },
      {
        type: `${contentTypeEventPrefix[record.contentType]}.${action}`,
        object: typed ? await typed(tx, record) : typeViewOf(record),
      },
    ];
  }
}
