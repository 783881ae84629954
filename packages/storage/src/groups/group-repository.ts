import { expressionBuilder, type ExpressionBuilder, type Kysely } from 'kysely';
import {
  groupListSpec,
  groupSchema,
  type Group,
  type GroupRecord,
  type GroupRelation,
  type ListQuery,
  type Page,
  type UserRecord,
} from '@lectern/core';
import { type GroupStore, type ListNarrowing, type NewGroupRow, type UserRef } from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import { containsIgnoringCase, ignoringCase } from '../listing/list-builder.ts';
import type { Condition } from '../listing/list-definition.ts';
import { defineResource, recordOf } from '../listing/resource-definition.ts';
import { rqlColumn, rqlList } from '../listing/rql-list.ts';
import { listUsers } from '../users/user-repository.ts';
import { insertRow } from '../shared/insert-row.ts';
import { idsByPublicId } from '../shared/ids-by-public-id.ts';

/** A group list's table: the group, `g`. */
type GroupTables = { g: 'groups' };
type GroupEb = ExpressionBuilder<Tables<GroupTables>, 'g'>;

const memberCount = (eb: GroupEb) =>
  eb
    .selectFrom('group_users as gc')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .whereRef('gc.group_id', '=', 'g.id')
    .where('gc.relation', '=', 'member');

const reportEb: GroupEb = expressionBuilder<Tables<GroupTables>, 'g'>();
/** The owners or the members of the list's group, for the report fields `owners.*` and `members.*`. */
const usersOfGroup = (relation: 'owner' | 'member') =>
  reportEb
    .selectFrom('group_users as rg')
    .innerJoin('users as ru', 'ru.id', 'rg.user_id')
    .select('rg.user_id')
    .whereRef('rg.group_id', '=', 'g.id')
    .where('rg.relation', '=', relation);

/** The groups a user (by public id) is a member or an owner of, as a condition on `g.id`. */
const groupsOf = (eb: GroupEb, relation: 'owner' | 'member', user: string) =>
  eb(
    'g.id',
    'in',
    eb
      .selectFrom('group_users as gm')
      .select('gm.group_id')
      .where('gm.relation', '=', relation)
      .where('gm.user_id', '=', eb.selectFrom('users as mu').select('mu.id').where('mu.public_id', '=', user)),
  );

/** Groups, from core's groupSchema: the member count is counted, owners are loaded per page. */
export const groupResource = defineResource<Group, Omit<GroupRecord, 'view'>, GroupTables>(groupSchema, groupListSpec, {
  table: 'groups',
  alias: 'g',
  internal: { id: 'g.id' },
  fields: {
    name: { filter: (_eb, value) => containsIgnoringCase('g.name', String(value)), sort: ignoringCase('g.name') },
    member_count: { column: () => memberCount(reportEb) },
  },
  filters: {
    // the user's id is looked up once, then group_users_user_idx (user_id, relation, group_id) gives the groups
    member: (eb, value) => groupsOf(eb, 'member', String(value)),
    owner: (eb, value) => groupsOf(eb, 'owner', String(value)),
  },
  rql: {
    'owners.public_id': rqlList(usersOfGroup('owner'), 'ru.public_id'),
    'owners.name': rqlList(usersOfGroup('owner'), 'ru.name'),
    'owners.email': rqlList(usersOfGroup('owner'), 'ru.email'),
    // not API fields: what SCIM filters resolve to (core's scim/scim-filter.ts), never in a report's catalogue
    external_id: rqlColumn('g.external_id'),
    'members.public_id': rqlList(usersOfGroup('member'), 'ru.public_id'),
  },
  tiebreak: 'g.id',
});

export class GroupRepository implements GroupStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewGroupRow): Promise<GroupRecord> {
    const id = await insertRow(this.db, 'groups', {
      ...groupResource.toColumns(row),
      modified: row.created,
    });
    return (await this.findById(id))!;
  }

  async update(id: number, changes: { name?: string; modified: string }): Promise<void> {
    await this.db.updateTable('groups').set(groupResource.toColumns(changes)).where('id', '=', id).execute();
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db.updateTable('groups').set({ deleted_at: at, modified: at }).where('id', '=', id).execute();
  }

  findById(id: number): Promise<GroupRecord | undefined> {
    return this.findOne((eb) => eb('g.id', '=', id));
  }

  findByPublicId(publicId: string): Promise<GroupRecord | undefined> {
    return this.findOne((eb) => eb('g.public_id', '=', publicId));
  }

  async list(query: ListQuery, narrowing?: ListNarrowing): Promise<Page<GroupRecord>> {
    const live = this.db.selectFrom('groups as g').where('g.deleted_at', 'is', null);
    const { total, records } = await groupResource.page(this.db, live, query, narrowing);
    return { total, items: await this.withOwners(records) };
  }

  idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>> {
    return idsByPublicId(this.db, 'groups', publicIds);
  }

  async relatedUserIds(groupId: number, relation: GroupRelation): Promise<number[]> {
    const rows = await this.db
      .selectFrom('group_users')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('relation', '=', relation)
      .execute();
    return rows.map((row) => row.user_id);
  }

  async addRelated(groupId: number, relation: GroupRelation, userIds: readonly number[], at: string): Promise<void> {
    // batches stay well under SQLite's bound-parameter limit
    for (let i = 0; i < userIds.length; i += 200) {
      const values = userIds.slice(i, i + 200).map((userId) => ({ group_id: groupId, user_id: userId, relation, created: at }));
      await this.db
        .insertInto('group_users')
        .values(values)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  async removeRelated(groupId: number, relation: GroupRelation, userIds: readonly number[]): Promise<void> {
    for (let i = 0; i < userIds.length; i += 500) {
      await this.db
        .deleteFrom('group_users')
        .where('group_id', '=', groupId)
        .where('relation', '=', relation)
        .where('user_id', 'in', userIds.slice(i, i + 500))
        .execute();
    }
  }

  async isRelated(groupId: number, relation: GroupRelation, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('group_users')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('relation', '=', relation)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  listMembers(groupId: number, query: ListQuery): Promise<Page<UserRecord>> {
    return listUsers(this.db, query, (eb) =>
      eb(
        'u.id',
        'in',
        eb.selectFrom('group_users as gm').select('gm.user_id').where('gm.group_id', '=', groupId).where('gm.relation', '=', 'member'),
      ),
    );
  }

  private async findOne(where: Condition<Tables<GroupTables>, 'g'>): Promise<GroupRecord | undefined> {
    const row = await groupResource.read(this.db).where('g.deleted_at', 'is', null).where(where).executeTakeFirst();
    if (!row) return undefined;
    return (await this.withOwners([groupResource.toRecord(row)]))[0];
  }

  /** Attaches owners to a page of groups with one query for the whole page. */
  private async withOwners(records: ReturnType<typeof groupResource.toRecord>[]): Promise<GroupRecord[]> {
    const owners = new Map<number, UserRef[]>();
    if (records.length > 0) {
      const ownerRows = await this.db
        .selectFrom('group_users as go')
        .innerJoin('users as u', 'u.id', 'go.user_id')
        .select(['go.group_id', 'u.public_id', 'u.name', 'u.email'])
        .where('go.relation', '=', 'owner')
        .where(
          'go.group_id',
          'in',
          records.map(({ internal }) => internal.id),
        )
        .orderBy('u.name')
        .execute();
      for (const owner of ownerRows) {
        const list = owners.get(owner.group_id) ?? [];
        list.push({ public_id: owner.public_id, name: owner.name, email: owner.email });
        owners.set(owner.group_id, list);
      }
    }
    return records.map(({ internal, view }) => {
      // copied, not spread (see recordOf): every row of a page comes through here
      const withOwners = Object.assign({}, view, { owners: owners.get(internal.id) ?? [] });
      return recordOf({ internal, view: withOwners });
    });
  }
}
