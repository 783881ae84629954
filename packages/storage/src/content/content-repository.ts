import { expressionBuilder, sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type {
  ContainmentEdge,
  ContentChanges,
  ContentListOptions,
  ContentMediaStatus,
  ContentRecord,
  ContentRef,
  ContentStore,
  ContentType,
  ContentViewer,
  ListQuery,
  NewContentRow,
  Page,
} from '@lectern/core';
import type { ContentItemsTable, Database } from '../schema.ts';
import { byOwner } from '../shared/by-owner.ts';
import { applyFilters, fetchPage, fromBool, toBool, type AnyEb, type ListDefinition } from '../shared/list-builder.ts';
import { narrowList, rqlColumn, rqlList, type ListJoins } from '../reports/rql-list.ts';
import type { RqlSqlFields } from '../reports/rql-to-sql.ts';

/** A content read: the item's own columns, its average rating and its channel's reference. */
type ContentRow = Omit<Selectable<ContentItemsTable>, 'channel_id' | 'deleted_at' | 'rating_sum' | 'rating_count'> & {
  avg_feedback_rating: number | null;
  channel_public_id: string | null;
  channel_name: string | null;
};

/**
 * `avg_feedback_rating`, computed in SQL so that the value an item shows and the value a saved
 * report compares (`gt(avg_feedback_rating,4)`) are one and the same number.
 */
const averageRating = sql<number | null>`(CASE WHEN ci.rating_count > 0 THEN round(CAST(ci.rating_sum AS REAL) / ci.rating_count, 2) END)`;

/** The columns of every content read: the item (`ci`) joined to its channel (`ch`). */
const contentColumns = [
  'ci.id',
  'ci.public_id',
  'ci.content_type',
  'ci.name',
  'ci.description',
  'ci.is_archived',
  'ci.is_hidden',
  'ci.is_completable',
  'ci.is_self_assignable',
  'ci.duration_minutes',
  'ci.total_assignments',
  'ci.completed_assignments_count',
  'ci.url',
  'ci.media_asset_id',
  'ci.media_status',
  'ci.media_duration',
  'ci.starts_on',
  'ci.ends_on',
  'ci.created',
  'ci.modified',
  'ch.public_id as channel_public_id',
  'ch.name as channel_name',
] as const;

/**
 * What role `user` may see (docs/content.md), as SQL on the item aliased `alias`: not hidden, not
 * archived, and either without access groups or in a live group the user is a member of. An item
 * whose access groups were all deleted stays restricted: deleting a group must not publish content.
 */
function visibleToMember(eb: AnyEb, alias: string, userId: number): Expression<SqlBool> {
  const itemId = `${alias}.id`;
  return eb.and([
    eb(`${alias}.is_hidden`, '=', 0),
    eb(`${alias}.is_archived`, '=', 0),
    eb.or([
      eb.not(eb.exists(eb.selectFrom('content_groups as vr').select('vr.group_id').whereRef('vr.content_id', '=', itemId))),
      eb.exists(
        eb
          .selectFrom('content_groups as va')
          .select('va.group_id')
          .whereRef('va.content_id', '=', itemId)
          // the user's live groups: evaluated once per query, not once per item
          .where(
            'va.group_id',
            'in',
            eb
              .selectFrom('group_users as vm')
              .innerJoin('groups as vg', 'vg.id', 'vm.group_id')
              .select('vm.group_id')
              .where('vm.user_id', '=', userId)
              .where('vm.relation', '=', 'member')
              .where('vg.deleted_at', 'is', null),
          ),
      ),
    ]),
  ]);
}

/** Items that are not deleted and that `viewer` may see; the events area lists its items with it too. */
export function visibleTo(eb: AnyEb, viewer: ContentViewer, alias: string): Expression<SqlBool> {
  const live = eb(`${alias}.deleted_at`, 'is', null);
  return viewer.memberId === null ? live : eb.and([live, visibleToMember(eb, alias, viewer.memberId)]);
}

/** Items carrying the tag `name`, driven from the tag's index entries rather than a scan of items. */
const taggedWith = (eb: AnyEb, name: string) =>
  eb(
    'ci.id',
    'in',
    eb.selectFrom('content_tags as tf').innerJoin('tags as tn', 'tn.id', 'tf.tag_id').select('tf.content_id').where('tn.name', '=', name),
  );

const reportEb = expressionBuilder<Database, 'content_items'>() as unknown as AnyEb;

/** The content report catalogue (core: reportResourceDefinitions.content_items) over the list query's aliases. */
export const contentRqlFields: RqlSqlFields = {
  public_id: rqlColumn('ci.public_id'),
  name: rqlColumn('ci.name'),
  content_type: rqlColumn('ci.content_type'),
  description: rqlColumn('ci.description'),
  is_archived: rqlColumn('ci.is_archived'),
  is_hidden: rqlColumn('ci.is_hidden'),
  is_completable: rqlColumn('ci.is_completable'),
  is_self_assignable: rqlColumn('ci.is_self_assignable'),
  duration_minutes: rqlColumn('ci.duration_minutes'),
  avg_feedback_rating: { kind: 'scalar', column: averageRating },
  total_assignments: rqlColumn('ci.total_assignments'),
  completed_assignments_count: rqlColumn('ci.completed_assignments_count'),
  created: rqlColumn('ci.created'),
  modified: rqlColumn('ci.modified'),
  'groups.public_id': accessGroupList('rg.public_id'),
  'groups.name': accessGroupList('rg.name'),
  tags: rqlList(
    reportEb
      .selectFrom('content_tags as rt')
      .innerJoin('tags as rtn', 'rtn.id', 'rt.tag_id')
      .select('rt.tag_id')
      .whereRef('rt.content_id', '=', 'ci.id'),
    'rtn.name',
  ),
  'channel.public_id': rqlColumn('ch.public_id'),
  'channel.name': rqlColumn('ch.name'),
};

const contentJoins: ListJoins = { ch: (query) => query.leftJoin('channels as ch', 'ch.id', 'ci.channel_id') };

/** The live access groups an item shows, as a report list field. */
function accessGroupList(element: string) {
  return rqlList(
    reportEb
      .selectFrom('content_groups as rcg')
      .innerJoin('groups as rg', 'rg.id', 'rcg.group_id')
      .select('rcg.group_id')
      .whereRef('rcg.content_id', '=', 'ci.id')
      .where('rg.deleted_at', 'is', null),
    element,
  );
}

export const contentListDefinition: ListDefinition = {
  filters: {
    content_type: (eb, value) => eb('ci.content_type', 'in', value as string[]),
    is_archived: (eb, value) => eb('ci.is_archived', '=', fromBool(value === true)),
    is_hidden: (eb, value) => eb('ci.is_hidden', '=', fromBool(value === true)),
    channel: (eb, value) => eb('ci.channel_id', '=', eb.selectFrom('channels as cf').select('cf.id').where('cf.public_id', '=', value)),
    group: (eb, value) =>
      eb(
        'ci.id',
        'in',
        eb
          .selectFrom('content_groups as gf')
          .innerJoin('groups as gg', 'gg.id', 'gf.group_id')
          .select('gf.content_id')
          .where('gg.public_id', '=', value)
          .where('gg.deleted_at', 'is', null),
      ),
    tag: (eb, value) => taggedWith(eb, String(value)),
    tag_all: (eb, value) => eb.and((value as string[]).map((name) => taggedWith(eb, name))),
  },
  ranges: { created: 'ci.created', modified: 'ci.modified' },
  search: ['ci.name'],
  ordering: {
    name: 'ci.name',
    content_type: 'ci.content_type',
    duration_minutes: 'ci.duration_minutes',
    total_assignments: 'ci.total_assignments',
    created: 'ci.created',
    modified: 'ci.modified',
  },
  tiebreak: 'ci.id',
};

export class ContentRepository implements ContentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewContentRow): Promise<number> {
    const inserted = await this.db
      .insertInto('content_items')
      .values({
        public_id: row.publicId,
        content_type: row.contentType,
        name: row.name,
        description: row.description,
        is_hidden: fromBool(row.isHidden),
        is_completable: fromBool(row.isCompletable),
        is_self_assignable: fromBool(row.isSelfAssignable),
        duration_minutes: row.durationMinutes,
        channel_id: row.channelId,
        url: row.url,
        media_asset_id: row.mediaAssetId,
        media_status: row.mediaStatus,
        starts_on: row.startsOn,
        ends_on: row.endsOn,
        created: row.created,
        modified: row.created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async update(id: number, changes: ContentChanges): Promise<void> {
    const bool = (value: boolean | undefined) => (value === undefined ? undefined : fromBool(value));
    const columns = Object.fromEntries(
      Object.entries({
        name: changes.name,
        description: changes.description,
        is_archived: bool(changes.isArchived),
        is_hidden: bool(changes.isHidden),
        is_completable: bool(changes.isCompletable),
        is_self_assignable: bool(changes.isSelfAssignable),
        duration_minutes: changes.durationMinutes,
        channel_id: changes.channelId,
        url: changes.url,
        media_asset_id: changes.mediaAssetId,
        media_status: changes.mediaStatus,
        media_duration: changes.mediaDuration,
        starts_on: changes.startsOn,
        ends_on: changes.endsOn,
        modified: changes.modified,
      }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(columns).length === 0) return;
    await this.db.updateTable('content_items').set(columns).where('id', '=', id).execute();
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db.updateTable('content_items').set({ deleted_at: at, modified: at }).where('id', '=', id).execute();
  }

  findById(id: number, viewer: ContentViewer): Promise<ContentRecord | undefined> {
    return this.findOne((eb) => eb('ci.id', '=', id), viewer);
  }

  findByPublicId(publicId: string, viewer: ContentViewer): Promise<ContentRecord | undefined> {
    return this.findOne((eb) => eb('ci.public_id', '=', publicId), viewer);
  }

  async findByIds(ids: readonly number[], viewer: ContentViewer): Promise<ContentRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('content_items as ci')
      .leftJoin('channels as ch', 'ch.id', 'ci.channel_id')
      .select(contentColumns)
      .select(averageRating.as('avg_feedback_rating'))
      .where('ci.id', 'in', [...ids])
      .where((eb) => visibleTo(eb, viewer, 'ci'))
      .execute();
    return this.toRecords(rows as ContentRow[], viewer);
  }

  /** The viewer's visibility rule applies to a saved report's narrowing as to any list. */
  async list(query: ListQuery, viewer: ContentViewer, options: ContentListOptions = {}): Promise<Page<ContentRecord>> {
    let filtered = this.db.selectFrom('content_items as ci').where((eb) => visibleTo(eb, viewer, 'ci'));
    if (options.contentType !== undefined) filtered = filtered.where('ci.content_type', '=', options.contentType);
    filtered = applyFilters(filtered, query, contentListDefinition);
    const narrowed = narrowList(filtered, query, contentListDefinition, contentRqlFields, contentJoins, options);
    const { rows, total } = await fetchPage<ContentRow>(narrowed.filtered, narrowed.query, narrowed.definition, (q) =>
      narrowed.joinRest(q).select(contentColumns).select(averageRating.as('avg_feedback_rating')),
    );
    return { total, items: await this.toRecords(rows, viewer) };
  }

  async idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>> {
    if (publicIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('content_items')
      .select(['id', 'public_id'])
      .where('public_id', 'in', [...publicIds])
      .where('deleted_at', 'is', null)
      .execute();
    return new Map(rows.map((row) => [row.public_id, row.id]));
  }

  async setGroups(id: number, groupIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('content_groups').where('content_id', '=', id).execute();
    if (groupIds.length === 0) return;
    await this.db
      .insertInto('content_groups')
      .values(groupIds.map((groupId) => ({ content_id: id, group_id: groupId })))
      .execute();
  }

  async setTags(id: number, names: readonly string[]): Promise<void> {
    await this.db.deleteFrom('content_tags').where('content_id', '=', id).execute();
    if (names.length === 0) return;
    await this.db
      .insertInto('tags')
      .values(names.map((name) => ({ name })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    await this.db
      .insertInto('content_tags')
      .columns(['content_id', 'tag_id'])
      .expression((eb) =>
        eb
          .selectFrom('tags')
          .select([eb.val(id).as('content_id'), 'id'])
          .where('name', 'in', [...names]),
      )
      .execute();
  }

  async setItems(id: number, itemIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('content_track_items').where('parent_id', '=', id).execute();
    if (itemIds.length === 0) return;
    await this.db
      .insertInto('content_track_items')
      .values(itemIds.map((itemId, position) => ({ parent_id: id, position, item_id: itemId })))
      .execute();
  }

  async heldByTrack(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('content_track_items as ti')
      .innerJoin('content_items as t', 't.id', 'ti.parent_id')
      .select('ti.parent_id')
      .where('ti.item_id', '=', id)
      .where('t.content_type', 'in', ['track', 'scheduled_track'])
      .where('t.deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async containedBelow(ids: readonly number[]): Promise<ContainmentEdge[]> {
    if (ids.length === 0) return [];
    // `union` (not `union all`) drops repeated links, so even a corrupt cycle ends the walk
    const result = await sql<{ parent_id: number; item_id: number }>`
      with recursive below(parent_id, item_id) as (
        select t.parent_id, t.item_id from content_track_items t
          join content_items c on c.id = t.item_id and c.deleted_at is null
          where t.parent_id in (${sql.join([...ids])})
        union
        select t.parent_id, t.item_id from content_track_items t
          join below b on t.parent_id = b.item_id
          join content_items c on c.id = t.item_id and c.deleted_at is null
      )
      select parent_id, item_id from below`.execute(this.db);
    return result.rows.map((row) => ({ parentId: row.parent_id, itemId: row.item_id }));
  }

  private async findOne(where: (eb: AnyEb) => Expression<SqlBool>, viewer: ContentViewer): Promise<ContentRecord | undefined> {
    const row = await this.db
      .selectFrom('content_items as ci')
      .leftJoin('channels as ch', 'ch.id', 'ci.channel_id')
      .select(contentColumns)
      .select(averageRating.as('avg_feedback_rating'))
      .where(where)
      .where((eb) => visibleTo(eb, viewer, 'ci'))
      .executeTakeFirst();
    return row ? (await this.toRecords([row as ContentRow], viewer))[0] : undefined;
  }

  /** Attaches groups, tags and container items to a page of rows: one query each for the whole page. */
  private async toRecords(rows: ContentRow[], viewer: ContentViewer): Promise<ContentRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    // sequential: a transaction's queries share one connection
    const groupRows = await this.db
      .selectFrom('content_groups as cg')
      .innerJoin('groups as g', 'g.id', 'cg.group_id')
      .select(['cg.content_id as owner', 'g.public_id', 'g.name'])
      .where('cg.content_id', 'in', ids)
      .where('g.deleted_at', 'is', null)
      .orderBy('g.name')
      .orderBy('g.id')
      .execute();
    const tagRows = await this.db
      .selectFrom('content_tags as ct')
      .innerJoin('tags as t', 't.id', 'ct.tag_id')
      .select(['ct.content_id as owner', 't.name'])
      .where('ct.content_id', 'in', ids)
      .orderBy('t.name')
      .execute();
    const itemRows = await this.db
      .selectFrom('content_track_items as ti')
      .innerJoin('content_items as i', 'i.id', 'ti.item_id')
      .select(['ti.parent_id as owner', 'i.public_id', 'i.name', 'i.content_type'])
      .where('ti.parent_id', 'in', ids)
      .where((eb) => visibleTo(eb, viewer, 'i'))
      .orderBy('ti.parent_id')
      .orderBy('ti.position')
      .execute();
    const groups = byOwner(groupRows, (row) => ({ public_id: row.public_id, name: row.name }));
    const tags = byOwner(tagRows, (row) => row.name);
    const items = byOwner(itemRows, (row): ContentRef => ({
      public_id: row.public_id,
      name: row.name,
      content_type: row.content_type as ContentType,
    }));
    return rows.map((row) => toContentRecord(row, groups.get(row.id) ?? [], tags.get(row.id) ?? [], items.get(row.id) ?? []));
  }
}

function toContentRecord(row: ContentRow, groups: ContentRecord['summary']['groups'], tags: string[], items: ContentRef[]): ContentRecord {
  const contentType = row.content_type as ContentType;
  return {
    id: row.id,
    contentType,
    summary: {
      public_id: row.public_id,
      name: row.name,
      content_type: contentType,
      description: row.description,
      is_archived: toBool(row.is_archived),
      is_hidden: toBool(row.is_hidden),
      is_completable: toBool(row.is_completable),
      is_self_assignable: toBool(row.is_self_assignable),
      duration_minutes: row.duration_minutes,
      avg_feedback_rating: row.avg_feedback_rating,
      total_assignments: row.total_assignments,
      completed_assignments_count: row.completed_assignments_count,
      created: row.created,
      modified: row.modified,
      groups,
      tags,
      channel: row.channel_public_id === null ? null : { public_id: row.channel_public_id, name: row.channel_name! },
    },
    extras: {
      url: row.url,
      media_asset_id: row.media_asset_id,
      media_status: row.media_status as ContentMediaStatus,
      media_duration: row.media_duration,
      items,
      starts_on: row.starts_on,
      ends_on: row.ends_on,
    },
  };
}
