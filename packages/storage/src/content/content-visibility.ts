import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ContentViewer } from '@lectern/core/ports';
import type { Condition } from '../listing/list-definition.ts';

/**
 * The rule reads the item under the caller's alias (`ci`, or `i` for a track's items), so its
 * columns are named at run time, which kysely cannot check: the callers pass their own typed
 * builder and an alias of their query, and the rule reads it as a builder over any tables.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const overItem = <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) => eb as unknown as ExpressionBuilder<any, any>;

/**
 * What role `user` may see (docs/content.md): an item not deleted, not hidden, not archived, and
 * either without access groups or in a live group the user is a member of. An item whose access
 * groups were all deleted stays restricted: deleting a group must not publish content.
 *
 * The rule comes in two parts because their costs differ: the item's own flags are columns, while
 * its access groups are looked up per item. A list checks the groups after its own filters
 * (`ListHints.checkedLast`), so a search or a tag rules an item out before its groups are read.
 */
export function listedFor<DB, TB extends keyof DB>(
  typed: ExpressionBuilder<DB, TB>,
  viewer: ContentViewer,
  alias: TB & string,
): Expression<SqlBool> {
  const eb = overItem(typed);
  // the alias as the string the column names are built from
  const item: string = alias;
  const live = eb(`${item}.deleted_at`, 'is', null);
  if (viewer.memberId === null) return live;
  // literals, not parameters: SQLite then leaves to the partial index the conditions its WHERE implies
  return eb.and([live, eb(`${item}.is_hidden`, '=', eb.lit(0)), eb(`${item}.is_archived`, '=', eb.lit(0))]);
}

/** The access-group part of the rule, or undefined for a viewer who sees every live item. */
export function inAccessGroupsOf<DB, TB extends keyof DB>(viewer: ContentViewer, alias: TB & string): Condition<DB, TB> | undefined {
  const userId = viewer.memberId;
  if (userId === null) return undefined;
  // the alias as the string the column names are built from
  const item: string = alias;
  const itemId = `${item}.id`;
  return (typed) => {
    const eb = overItem(typed);
    return eb.or([
      // kept by triggers on content_groups, so only restricted items look up their groups
      eb(`${item}.has_access_groups`, '=', eb.lit(0)),
      eb.exists(
        eb
          .selectFrom('content_groups as va')
          .select('va.group_id')
          .whereRef('va.content_id', '=', itemId)
          // the user's live groups: evaluated once per query, not once per item. The unary plus
          // keeps the planner off the (group, item) index, which costs a probe per group the user
          // is in for every item; each item's few groups are read by its id and checked instead.
          .where(
            sql<number>`+${sql.ref('va.group_id')}`,
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
    ]);
  };
}

/** Items that are not deleted and that `viewer` may see; the events area lists its items with it too. */
export function visibleTo<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  viewer: ContentViewer,
  alias: TB & string,
): Expression<SqlBool> {
  const groups = inAccessGroupsOf<DB, TB>(viewer, alias);
  const listed = listedFor(eb, viewer, alias);
  return groups ? eb.and([listed, groups(eb)]) : listed;
}
