import { expressionBuilder, type Kysely } from 'kysely';
import type {
  GroupRecord,
  GroupRelation,
  GroupStore,
  ListNarrowing,
  ListQuery,
  NewGroupRow,
  Page,
  UserRecord,
  UserRef,
} from '@lectern/core';
import type { Database } from '../schema.ts';
import { applyFilters, containsIgnoringCase, fetchPage, ignoringCase, type AnyEb, type ListDefinition } from '../shared/list-builder.ts';
import { narrowList, rqlColumn, rqlList } from '../reports/rql-list.ts';
import type { RqlSqlFields } from '../reports/rql-to-sql.ts';
import { listUsers } from '../users/user-repository.ts';

interface GroupRow {
  id: number;
  public_id: string;
  name: string;
  source: string | null;
  created: string;
  modified: string;
  member_count: number;
}

const memberCount = (eb: AnyEb) =>
  eb
    .selectFrom('group_users as gc')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .whereRef('gc.group_id', '=', 'g.id')
    .where('gc.relation', '=', 'member');

const groupListDefinition: ListDefinition = {
  filters: {
    name: (_eb, value) => containsIgnoringCase('g.name', String(value)),
    source: (eb, value) => eb('g.source', '=', value),
  },
  ranges: { created: 'g.created', modified: 'g.modified' },
  search: ['g.name', 'g.source'],
  ordering: {
    name: ignoringCase('g.name'),
    source: 'g.source',
    member_count: (eb) => memberCount(eb),
    created: 'g.created',
    modified: 'g.modified',
  },
  tiebreak: 'g.id',
};

const reportEb = expressionBuilder<Database, 'groups'>() as unknown as AnyEb;
const owner = (element: string) =>
  rqlList(
    reportEb
      .selectFrom('group_users as ro')
      .innerJoin('users as ru', 'ru.id', 'ro.user_id')
      .select('ro.user_id')
      .whereRef('ro.group_id', '=', 'g.id')
      .where('ro.relation', '=', 'owner'),
    element,
  );

/** The groups report catalogue (core: reportResourceDefinitions.groups) over the list query's aliases. */
export const groupRqlFields: RqlSqlFields = {
  public_id: rqlColumn('g.public_id'),
  name: rqlColumn('g.name'),
  source: rqlColumn('g.source'),
  member_count: { kind: 'scalar', column: memberCount(reportEb) },
  'owners.public_id': owner('ru.public_id'),
  'owners.name': owner('ru.name'),
  'owners.email': owner('ru.email'),
  created: rqlColumn('g.created'),
  modified: rqlColumn('g.modified'),
};

const groupColumns = ['g.id', 'g.public_id', 'g.name', 'g.source', 'g.created', 'g.modified'] as const;

export class GroupRepository implements GroupStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewGroupRow): Promise<GroupRecord> {
    const inserted = await this.db
      .insertInto('groups')
      .values({ public_id: row.publicId, name: row.name, source: row.source, created: row.created, modified: row.created })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.findById(inserted.id))!;
  }

  async update(id: number, changes: { name?: string; modified: string }): Promise<void> {
    await this.db.updateTable('groups').set(changes).where('id', '=', id).execute();
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
    const filtered = applyFilters(this.db.selectFrom('groups as g').where('g.deleted_at', 'is', null), query, groupListDefinition);
    const narrowed = narrowList(filtered, query, groupListDefinition, groupRqlFields, {}, narrowing);
    const { rows, total } = await fetchPage<GroupRow>(narrowed.filtered, narrowed.query, narrowed.definition, (q) =>
      q.select(groupColumns).select((eb) => memberCount(eb).as('member_count')),
    );
    return { total, items: await this.withOwners(rows) };
  }

  async idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>> {
    if (publicIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('groups')
      .select(['id', 'public_id'])
      .where('public_id', 'in', [...publicIds])
      .where('deleted_at', 'is', null)
      .execute();
    return new Map(rows.map((row) => [row.public_id, row.id]));
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

  private async findOne(where: (eb: AnyEb) => ReturnType<AnyEb>): Promise<GroupRecord | undefined> {
    const row = await this.db
      .selectFrom('groups as g')
      .select(groupColumns)
      .select((eb) => memberCount(eb).as('member_count'))
      .where('g.deleted_at', 'is', null)
      .where(where)
      .executeTakeFirst();
    if (!row) return undefined;
    return (await this.withOwners([row as GroupRow]))[0];
  }

  /** Attaches owners to a page of groups with one query for the whole page. */
  private async withOwners(rows: GroupRow[]): Promise<GroupRecord[]> {
    const owners = new Map<number, UserRef[]>();
    if (rows.length > 0) {
      const ownerRows = await this.db
        .selectFrom('group_users as go')
        .innerJoin('users as u', 'u.id', 'go.user_id')
        .select(['go.group_id', 'u.public_id', 'u.name', 'u.email'])
        .where('go.relation', '=', 'owner')
        .where(
          'go.group_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('u.name')
        .execute();
      for (const owner of ownerRows) {
        const list = owners.get(owner.group_id) ?? [];
        list.push({ public_id: owner.public_id, name: owner.name, email: owner.email });
        owners.set(owner.group_id, list);
      }
    }
    return rows.map((row) => ({
      id: row.id,
      view: {
        public_id: row.public_id,
        name: row.name,
        source: row.source,
        member_count: Number(row.member_count),
        owners: owners.get(row.id) ?? [],
        created: row.created,
        modified: row.modified,
      },
    }));
  }
}
