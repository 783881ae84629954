/** Content items, their channels, tags, access groups and the items of tracks and collections. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

export interface ChannelsTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  created: string;
  modified: string;
  deleted_at: string | null;
}

export interface ContentItemsTable {
  id: Generated<number>;
  public_id: string;
  content_type: string;
  name: string;
  /** foldCase(name), written with the name: what `search` compares and indexes */
  name_folded: string | null;
  description: string;
  is_archived: Generated<number>;
  is_hidden: number;
  is_completable: number;
  is_self_assignable: number;
  duration_minutes: number;
  channel_id: number | null;
  /** 1 when the item has rows in content_groups, kept by triggers on that table (migration 0014) */
  has_access_groups: Generated<number>;
  total_assignments: Generated<number>;
  completed_assignments_count: Generated<number>;
  rating_sum: Generated<number>;
  rating_count: Generated<number>;
  url: string | null;
  media_asset_id: string | null;
  /** 'none' | 'processing' | 'ready' | 'errored' */
  media_status: string;
  media_duration: number | null;
  starts_on: string | null;
  ends_on: string | null;
  created: string;
  modified: string;
  deleted_at: string | null;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
}

export interface ContentTagsTable {
  content_id: number;
  tag_id: number;
}

export interface ContentGroupsTable {
  content_id: number;
  group_id: number;
}

/** The ordered items of a track, scheduled track or collection. */
export interface ContentTrackItemsTable {
  parent_id: number;
  position: number;
  item_id: number;
}
