/**
 * Content items as storage reads them, from core's contentSummarySchema: the item (`ci`) with its
 * channel (`ch`). Access groups and tags are loaded per page by the repository; the columns only
 * some types use (url, media, dates) are internal keys the record's extras read.
 */
import { expressionBuilder, sql, type ExpressionBuilder } from 'kysely';
import { contentListSpec, contentSummarySchema, type ContentSummary } from '@lectern/core';
import { rqlList } from '../listing/rql-list.ts';
import { liveGroupId } from '../shared/live-group-id.ts';
import type { Tables } from '../schema.ts';
import { defineResource, referenceTo } from '../listing/resource-definition.ts';

/**
 * `avg_feedback_rating`, computed in SQL so that the value an item shows and the value a saved
 * report compares (`gt(avg_feedback_rating,4)`) are one and the same number.
 */
// `* 1.0` divides as a fraction on both databases (SQLite real, PostgreSQL numeric, which round takes)
const averageRating = sql<number | null>`(CASE WHEN ci.rating_count > 0 THEN round(ci.rating_sum * 1.0 / ci.rating_count, 2) END)`;

/** A content list's table: the item, `ci`. */
export type ContentTables = { ci: 'content_items' };

/** Items carrying the tag `name`, driven from the tag's index entries rather than a scan of items. */
export const taggedWith = (eb: ExpressionBuilder<Tables<ContentTables>, 'ci'>, name: string) =>
  eb(
    'ci.id',
    'in',
    eb.selectFrom('content_tags as tf').innerJoin('tags as tn', 'tn.id', 'tf.tag_id').select('tf.content_id').where('tn.name', '=', name),
  );

/** A report's list fields, correlated with the item of the list's row. */
const reportEb = expressionBuilder<Tables<ContentTables>, 'ci'>();

/** The live access groups of the list's item, for the report fields `groups.*`. */
const accessGroupsOfItem = reportEb
  .selectFrom('content_groups as rcg')
  .innerJoin('groups as rg', 'rg.id', 'rcg.group_id')
  .select('rcg.group_id')
  .whereRef('rcg.content_id', '=', 'ci.id')
  .where('rg.deleted_at', 'is', null);

/** The tags of the list's item. */
const tagsOfItem = reportEb
  .selectFrom('content_tags as rt')
  .innerJoin('tags as rtn', 'rtn.id', 'rt.tag_id')
  .select('rt.tag_id')
  .whereRef('rt.content_id', '=', 'ci.id');

type ContentInternals = {
  id: number;
  url: string | null;
  mediaAssetId: string | null;
  mediaStatus: string | null;
  mediaDuration: number | null;
  startsOn: string | null;
  endsOn: string | null;
};

export const contentResource = defineResource<ContentSummary, ContentInternals, ContentTables, { ch: 'channels' }>(
  contentSummarySchema,
  contentListSpec,
  {
    table: 'content_items',
    alias: 'ci',
    internal: {
      id: 'ci.id',
      url: 'ci.url',
      mediaAssetId: 'ci.media_asset_id',
      mediaStatus: 'ci.media_status',
      mediaDuration: 'ci.media_duration',
      startsOn: 'ci.starts_on',
      endsOn: 'ci.ends_on',
    },
    fields: { name: { folded: 'ci.name_folded' }, avg_feedback_rating: { column: () => averageRating } },
    searchIndex: { table: 'content_items_search', columns: ['ci.name_folded'] },
    indexes: { ordered: { created: 'content_items_created_idx', modified: 'content_items_modified_idx', name: 'content_items_name_idx' } },
    references: {
      channel: referenceTo('channels', 'ch', 'ci.channel_id', 'left'),
    },
    rql: {
      'groups.public_id': rqlList(accessGroupsOfItem, 'rg.public_id'),
      'groups.name': rqlList(accessGroupsOfItem, 'rg.name'),
      tags: rqlList(tagsOfItem, 'rtn.name'),
    },
    filters: {
      group: (eb, value) =>
        eb(
          'ci.id',
          'in',
          eb
            .selectFrom('content_groups as gf')
            .select('gf.content_id')
            .where('gf.group_id', '=', liveGroupId(String(value))),
        ),
      tag: (eb, value) => taggedWith(eb, String(value)),
      tag_all: (eb, value) => eb.and((value as string[]).map((name) => taggedWith(eb, name))),
    },
    tiebreak: 'ci.id',
  },
);
