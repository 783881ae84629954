import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import {
  foldCase,
  type ListNarrowing,
  type ListQuery,
  type NewUserRow,
  type Page,
  type Role,
  type UserChanges,
  type UserRecord,
  type UserStore,
} from '@lectern/core';
import type { Database } from '../schema.ts';
import { preparedQuery } from '../shared/prepared-query.ts';
import { applyFilters, fetchPage, fromBool, ignoringCase, toBool, type AnyEb, type ListDefinition } from '../shared/list-builder.ts';
import { narrowList, rqlColumn, type ListJoins } from '../reports/rql-list.ts';
import type { RqlSqlFields } from '../reports/rql-to-sql.ts';

interface UserRow {
  id: number;
  public_id: string;
  email: string;
  name: string;
  role: string;
  employee_id: string | null;
  is_active: number;
  manager_id: number | null;
  date_joined: string;
  manager_public_id: string | null;
  manager_name: string | null;
  manager_email: string | null;
}

export const userListDefinition: ListDefinition = {
  filters: {
    email: (eb, value) => eb('u.email_lower', '=', foldCase(String(value))),
    employee_id: (eb, value) => eb('u.employee_id', '=', value),
    is_active: (eb, value) => eb('u.is_active', '=', fromBool(value === true)),
    role: (eb, value) => eb('u.role', '=', value),
    manager: (eb, value) => eb('u.manager_id', '=', eb.selectFrom('users as mf').select('mf.id').where('mf.public_id', '=', value)),
    group: (eb, value) =>
      eb(
        'u.id',
        'in',
        eb
          .selectFrom('group_users as gf')
          .innerJoin('groups as g', 'g.id', 'gf.group_id')
          .select('gf.user_id')
          .where('gf.relation', '=', 'member')
          .where('g.public_id', '=', value)
          .where('g.deleted_at', 'is', null),
      ),
  },
  ranges: { date_joined: 'u.date_joined' },
  search: ['u.name', 'u.email'],
  ordering: {
    name: ignoringCase('u.name'),
    email: 'u.email_lower',
    role: 'u.role',
    employee_id: 'u.employee_id',
    date_joined: 'u.date_joined',
  },
  tiebreak: 'u.id',
};

/** The users report catalogue (core: reportResourceDefinitions.users) over the list query's aliases. */
export const userRqlFields: RqlSqlFields = {
  public_id: rqlColumn('u.public_id'),
  email: rqlColumn('u.email', 'u.email_lower'),
  name: rqlColumn('u.name'),
  role: rqlColumn('u.role'),
  employee_id: rqlColumn('u.employee_id'),
  is_active: rqlColumn('u.is_active'),
  'manager.public_id': rqlColumn('m.public_id'),
  'manager.name': rqlColumn('m.name'),
  'manager.email': rqlColumn('m.email', 'm.email_lower'),
  date_joined: rqlColumn('u.date_joined'),
};

export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    managerId: row.manager_id,
    view: {
      public_id: row.public_id,
      email: row.email,
      name: row.name,
      role: row.role as Role,
      employee_id: row.employee_id,
      is_active: toBool(row.is_active),
      manager:
        row.manager_public_id === null ? null : { public_id: row.manager_public_id, name: row.manager_name!, email: row.manager_email! },
      date_joined: row.date_joined,
    },
  };
}

/** The columns of every user read: the user joined to its manager (`m`). */
const userColumns = [
  'u.id',
  'u.public_id',
  'u.email',
  'u.name',
  'u.role',
  'u.employee_id',
  'u.is_active',
  'u.manager_id',
  'u.date_joined',
  'm.public_id as manager_public_id',
  'm.name as manager_name',
  'm.email as manager_email',
] as const;

export function selectUsers(db: Kysely<Database>) {
  return db.selectFrom('users as u').leftJoin('users as m', 'm.id', 'u.manager_id').select(userColumns);
}

// the per-request lookups, compiled once (see prepared-query.ts)
const userByPublicId = preparedQuery<UserRow>(1, (db, publicId) => selectUsers(db).where('u.public_id', '=', publicId!));
const userById = preparedQuery<UserRow>(1, (db, id) => selectUsers(db).where('u.id', '=', id as unknown as number));

const userJoins: ListJoins = { m: (query) => query.leftJoin('users as m', 'm.id', 'u.manager_id') };

/** A page of users; `within` narrows the set first (e.g. to a group's members), `narrowing` is a saved report's. */
export async function listUsers(
  db: Kysely<Database>,
  query: ListQuery,
  within?: (eb: AnyEb) => Expression<SqlBool>,
  narrowing?: ListNarrowing,
): Promise<Page<UserRecord>> {
  let filtered = db.selectFrom('users as u');
  if (within) filtered = filtered.where(within);
  filtered = applyFilters(filtered, query, userListDefinition);
  const narrowed = narrowList(filtered, query, userListDefinition, userRqlFields, userJoins, narrowing);
  const { rows, total } = await fetchPage<UserRow>(narrowed.filtered, narrowed.query, narrowed.definition, (q) =>
    narrowed.joinRest(q).select(userColumns),
  );
  return { total, items: rows.map(toUserRecord) };
}

export class UserRepository implements UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewUserRow): Promise<UserRecord> {
    const inserted = await this.db
      .insertInto('users')
      .values({
        public_id: row.publicId,
        email: row.email,
        email_lower: foldCase(row.email),
        name: row.name,
        role: row.role,
        employee_id: row.employeeId,
        is_active: fromBool(row.isActive),
        manager_id: row.managerId,
        date_joined: row.dateJoined,
        modified: row.dateJoined,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.findById(inserted.id))!;
  }

  async update(id: number, changes: UserChanges): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.role !== undefined ? { role: changes.role } : {}),
        ...(changes.employeeId !== undefined ? { employee_id: changes.employeeId } : {}),
        ...(changes.managerId !== undefined ? { manager_id: changes.managerId } : {}),
        ...(changes.isActive !== undefined ? { is_active: fromBool(changes.isActive) } : {}),
        modified: changes.modified,
      })
      .where('id', '=', id)
      .execute();
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    const [row] = await userById(this.db, id);
    return row ? toUserRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<UserRecord | undefined> {
    const [row] = await userByPublicId(this.db, publicId);
    return row ? toUserRecord(row) : undefined;
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await selectUsers(this.db).where('u.email_lower', '=', foldCase(email)).executeTakeFirst();
    return row ? toUserRecord(row) : undefined;
  }

  async idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>> {
    if (publicIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'public_id'])
      .where('public_id', 'in', [...publicIds])
      .execute();
    return new Map(rows.map((row) => [row.public_id, row.id]));
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
