import type { Expression, SqlBool } from 'kysely';
import type { ContentViewer } from '@lectern/core/ports';
import type { AnyEb } from '../shared/list-builder.ts';

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
