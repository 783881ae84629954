import type { ContentMediaStatus, ContentRecord, ContentType } from '../content/content-item.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ListNarrowing } from './list-narrowing.ts';

/**
 * Whose eyes a read is for. `memberId` null sees every item that is not deleted (admins,
 * organizers, the system); a user id applies the role-`user` visibility rule of docs/content.md.
 */
export interface ContentViewer {
  memberId: number | null;
}

export const everyItem: ContentViewer = Object.freeze({ memberId: null });

export interface NewContentRow {
  publicId: string;
  contentType: ContentType;
  name: string;
  description: string;
  isHidden: boolean;
  isSelfAssignable: boolean;
  isCompletable: boolean;
  durationMinutes: number;
  channelId: number | null;
  url: string | null;
  mediaAssetId: string | null;
  mediaStatus: ContentMediaStatus;
  startsOn: string | null;
  endsOn: string | null;
  created: string;
}

export type ContentChanges = Partial<
  Pick<
    NewContentRow,
    | 'name'
    | 'description'
    | 'isHidden'
    | 'isSelfAssignable'
    | 'isCompletable'
    | 'durationMinutes'
    | 'channelId'
    | 'url'
    | 'mediaAssetId'
    | 'mediaStatus'
    | 'startsOn'
    | 'endsOn'
  >
> & { isArchived?: boolean; mediaDuration?: number | null; modified?: string };

/**
 * What a batch of new assignments needs to know of an item it names (an import's), read in one
 * statement for the batch: a track, an archived item or an item a track holds is left to the
 * one-at-a-time write, which knows their rules.
 */
export interface AssignTarget {
  id: number;
  contentType: ContentType;
  isArchived: boolean;
  /** a track or scheduled track that is not deleted holds it */
  heldByTrack: boolean;
}

/** One "container holds item" link of a track, scheduled track or collection. */
export interface ContainmentEdge {
  parentId: number;
  itemId: number;
}

export interface ContentListOptions extends ListNarrowing {
  /** one type's collection */
  contentType?: ContentType;
}

export interface ContentStore {
  insert(row: NewContentRow): Promise<number>;
  update(id: number, changes: ContentChanges): Promise<void>;
  softDelete(id: number, at: string): Promise<void>;
  /** Items that are not deleted and that `viewer` may see; a container's items are filtered the same way. */
  findById(id: number, viewer: ContentViewer): Promise<ContentRecord | undefined>;
  findByPublicId(publicId: string, viewer: ContentViewer): Promise<ContentRecord | undefined>;
  /** Several items at once (a page of another area's list), in no particular order. */
  findByIds(ids: readonly number[], viewer: ContentViewer): Promise<ContentRecord[]>;
  /** Filtered, counted and paged in SQL. */
  list(query: ListQuery, viewer: ContentViewer, options?: ContentListOptions): Promise<Page<ContentRecord>>;
  /** Internal ids of the given public ids among items that are not deleted. */
  idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>>;
  /** The items among `publicIds` that are not deleted and that `viewer` may see, by public id (a batch's lookup). */
  assignTargets(publicIds: readonly string[], viewer: ContentViewer): Promise<Map<string, AssignTarget>>;
  /** Replaces the access groups. */
  setGroups(id: number, groupIds: readonly number[]): Promise<void>;
  /** Replaces the tag set, creating tags that do not exist yet. */
  setTags(id: number, names: readonly string[]): Promise<void>;
  /** Replaces a container's ordered items. */
  setItems(id: number, itemIds: readonly number[]): Promise<void>;
  /** Whether a track or scheduled track that is not deleted lists the item. */
  heldByTrack(id: number): Promise<boolean>;
  /** Every containment link reachable downwards from `ids` (their items, their items' items, …). */
  containedBelow(ids: readonly number[]): Promise<ContainmentEdge[]>;
}
