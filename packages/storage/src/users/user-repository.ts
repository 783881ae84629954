import { sql, type Kysely, type Selectable } from 'kysely';
import { type ListQuery, type Page, type User, type UserRecord, userListSpec, userSchema } from '@lectern/core';
import { foldCase, type ListNarrowing, type NewUserRow, type UserByEmail, type UserChanges, type UserStore } from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import { preparedLookup } from '../shared/prepared-query.ts';
import { ignoringCase } from '../listing/list-builder.ts';
import type { Condition } from '../listing/list-definition.ts';
import { rqlColumn } from '../listing/rql-list.ts';
import { defineResource, referenceTo, recordOf } from '../listing/resource-definition.ts';
import type { ResourceOptions } from '../listing/resource-types.ts';
import { insertRows } from '../shared/insert-row.ts';
import { idsByPublicId } from '../shared/ids-by-public-id.ts';
import { valuesList } from '../shared/values-list.ts';
import { liveGroupId } from '../shared/live-group-id.ts';

/** Emails per lookup of `byEmails`: a batch's keys, well under SQLite's bound parameters. */
const EMAILS_PER_LOOKUP = 500;

type UserByEmailRow = Pick<Selectable<Database['users']>, 'id' | 'email_lower' | 'public_id' | 'name' | 'role' | 'employee_id'>;

/** Users, from core's userSchema: the manager is the user `m`; emails are matched by their folded copy. */
/** A user's list tables (the user, `u`) and the tables its reads join (the manager, `m`). */
export type UserTables = { u: 'users' };
export type UserJoins = { m: 'users' };

export const userResourceOptions: ResourceOptions<UserTables, UserJoins> = {
  table: 'users',
  alias: 'u',
  internal: { id: 'u.id', managerId: 'u.manager_id' },
  fields: {
    email: { folded: 'u.email_lower', sort: 'u.email_lower' },
    name: { folded: 'u.name_folded', sort: ignoringCase('u.name') },
  },
  searchIndex: { table: 'users_search', columns: ['u.email_lower', 'u.name_folded'] },
  indexes: { ordered: { date_joined: 'users_date_joined_idx', name: 'users_name_lower_idx' } },
  references: {
    manager: referenceTo('users', 'm', 'u.manager_id', 'left'),
  },
  filters: {
    group: (eb, value) =>
      eb(
        'u.id',
        'in',
        eb
          .selectFrom('group_users as gf')
          .select('gf.user_id')
          .where('gf.group_id', '=', liveGroupId(String(value)))
          .where('gf.relation', '=', 'member'),
      ),
  },
  // not API fields: what SCIM filters resolve to (core's scim/scim-filter.ts), never in a report's catalogue
  rql: {
    email_lower: rqlColumn('u.email_lower'),
    external_id: rqlColumn('u.external_id'),
    scim_deleted_at: rqlColumn('u.scim_deleted_at'),
    modified: rqlColumn('u.modified'),
  },
  tiebreak: 'u.id',
};

export const userResource = defineResource<User, Omit<UserRecord, 'view'>, UserTables, UserJoins>(
  userSchema,
  userListSpec,
  userResourceOptions,
);

type UserRow = Record<string, unknown>;

export function toUserRecord(row: UserRow): UserRecord {
  return recordOf(userResource.toRecord(row));
}

export const selectUsers = (db: Kysely<Database>) => userResource.read(db);

// the per-request lookups, compiled once (see prepared-query.ts)
const userByPublicId = preparedLookup<UserRow, [publicId: string]>(1, (db, publicId) =>
  selectUsers(db).where('u.public_id', '=', publicId),
);
const userById = preparedLookup<UserRow, [id: number]>(1, (db, id) => selectUsers(db).where('u.id', '=', id));

/** A page of users; `within` narrows the set first (e.g. to a group's members), `narrowing` is a saved report's. */
export async function listUsers(
  db: Kysely<Database>,
  query: ListQuery,
  within?: Condition<Tables<UserTables>, 'u'>,
  narrowing?: ListNarrowing,
): Promise<Page<UserRecord>> {
  let filtered = db.selectFrom('users as u');
  if (within) filtered = filtered.where(within);
  const { total, records } = await userResource.page(db, filtered, query, narrowing);
  return { total, items: records.map(recordOf) };
}

export class UserRepository implements UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewUserRow): Promise<UserRecord> {
    return (await this.insertMany([row]))[0]!;
  }

  async insertMany(rows: readonly NewUserRow[]): Promise<UserRecord[]> {
    const ids = (await insertRows(
      this.db,
      'users',
      // added to toColumns' fresh object, not spread into a new one (assignment-repository.ts)
      rows.map((row) => Object.assign(userResource.toColumns(row), { modified: row.dateJoined, public_id: row.publicId })),
    )) as number[];
    const records = new Map(
      (await selectUsers(this.db).where('u.id', 'in', ids).execute()).map((row) => toUserRecord(row)).map((record) => [record.id, record]),
    );
    return ids.map((id) => records.get(id)!);
  }

  async update(id: number, changes: UserChanges): Promise<void> {
    await this.db.updateTable('users').set(userResource.toColumns(changes)).where('id', '=', id).execute();
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    const row = await userById(this.db, id);
    return row ? toUserRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<UserRecord | undefined> {
    const row = await userByPublicId(this.db, publicId);
    return row ? toUserRecord(row) : undefined;
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await selectUsers(this.db).where('u.email_lower', '=', foldCase(email)).executeTakeFirst();
    return row ? toUserRecord(row) : undefined;
  }

  async byEmails(emails: readonly string[]): Promise<Map<string, UserByEmail>> {
    const found = new Map<string, UserByEmail>();
    const folded = [...new Set(emails.map(foldCase))];
    for (let start = 0; start < folded.length; start += EMAILS_PER_LOOKUP) {
      const listed = valuesList(
        this.db,
        folded.slice(start, start + EMAILS_PER_LOOKUP).map((email) => [email]),
        ['text'],
      );
      const { rows } = await sql<UserByEmailRow>`
        with e(email) as (${listed})
        select u.id, u.email_lower, u.public_id, u.name, u.role, u.employee_id from e join users u on u.email_lower = e.email`.execute(
        this.db,
      );
      for (const row of rows) {
        found.set(row.email_lower, { id: row.id, publicId: row.public_id, name: row.name, role: row.role, employeeId: row.employee_id });
      }
    }
    return found;
  }

  idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>> {
    return idsByPublicId(this.db, 'users', publicIds);
  }

  async managerChain(id: number): Promise<number[]> {
    // Walks up the management chain in one recursive query; the depth bound stops a corrupt cycle.
    const result = await sql<{ id: number }>`
      with recursive chain(id, depth) as (
        select manager_id, 1 from users where id = ${id} and manager_id is not null
        union all
        select u.manager_id, chain.depth + 1 from users u join chain on u.id = chain.id
        where u.manager_id is not null and chain.depth < 10000
      )
      select id from chain order by depth`.execute(this.db);
    return result.rows.map((row) => row.id);
  }

  async countActiveAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  list(query: ListQuery, narrowing?: ListNarrowing): Promise<Page<UserRecord>> {
    return listUsers(this.db, query, undefined, narrowing);
  }
}
