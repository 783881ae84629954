import { sql, type Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * Content items of every type, their channels, tags, access groups and container items.
 * List indexes are partial on `deleted_at is null`: every read excludes deleted items, so
 * deleted rows never cost index space or scan time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channels')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('channels_name_idx').on('channels').columns(['name']).execute();

  await db.schema
    .createTable('content_items')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_completable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_self_assignable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'integer', (c) => c.references('channels.id'))
    // kept by the assignments area in its own transactions
    .addColumn('total_assignments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_assignments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    // type-specific; null where the type has no such field
    .addColumn('url', 'text')
    .addColumn('media_asset_id', 'text')
    .addColumn('media_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('media_duration', 'real')
    .addColumn('starts_on', 'text')
    .addColumn('ends_on', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  const live = sql<boolean>`deleted_at is null`;
  const listIndexes: Array<[string, string[]]> = [
    ['created', ['created']],
    ['modified', ['modified']],
    ['name', ['name']],
    ['type_created', ['content_type', 'created']],
    ['channel_created', ['channel_id', 'created']],
  ];
  for (const [name, columns] of listIndexes) {
    await db.schema.createIndex(`content_items_${name}_idx`).on('content_items').columns(columns).where(live).execute();
  }

  await db.schema
    .createTable('tags')
    .addColumn('id', 'integer', identity(db))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();

  // join tables, keyed both ways: "this item's tags/groups" and "items with this tag/group"
  await db.schema
    .createTable('content_tags')
    .addColumn('content_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id'))
    .addPrimaryKeyConstraint('content_tags_pk', ['content_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('content_tags_tag_idx').on('content_tags').columns(['tag_id', 'content_id']).execute();

  await db.schema
    .createTable('content_groups')
    .addColumn('content_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addPrimaryKeyConstraint('content_groups_pk', ['content_id', 'group_id'])
    .execute();
  await db.schema.createIndex('content_groups_group_idx').on('content_groups').columns(['group_id', 'content_id']).execute();

  await db.schema
    .createTable('content_track_items')
    .addColumn('parent_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addPrimaryKeyConstraint('content_track_items_pk', ['parent_id', 'position'])
    .execute();
  // "which containers hold this item": cycle checks and the events area's delete rule
  await db.schema.createIndex('content_track_items_item_idx').on('content_track_items').columns(['item_id', 'parent_id']).execute();
}
