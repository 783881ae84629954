/**
 * What docs/development.md ("Adding a field") promises: a field added to a resource's API schema
 * with list traits, plus its column, is read, written, filtered, bounded, sorted, searched and
 * reported on with no other change. The test adds `nickname` to users exactly that way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { z } from 'zod';
import { compileRql, listed, listSpecOf, parseListQuery, searchableFields, userSchema, type User } from '@lectern/core';
import { catalogueOf, type ListNarrowing } from '@lectern/core/ports';
import { migrateToLatest } from '../kysely-storage.ts';
import type { Database } from '../schema.ts';
import { openSqliteDatabase } from '../sqlite/open-sqlite-storage.ts';
import { UserRepository, userResourceOptions, type UserJoins, type UserTables } from '../users/user-repository.ts';
import { defineResource, referenceTo } from './resource-definition.ts';
import type { ResourceOptions } from './resource-types.ts';

// the one declaration: what a contributor writes in packages/core/src/users/user.ts
const withNickname = userSchema.extend({ nickname: listed(z.string().nullable(), { filter: true, sort: true, search: true }) });

// everything below derives from it, exactly as the real users resource derives from userSchema
const spec = listSpecOf(withNickname, { filters: { group: { kind: 'uuid' } }, defaultOrdering: ['date_joined'] });
const catalogue = catalogueOf(withNickname, { searchable: searchableFields(withNickname) });
const resource = defineResource<User & { nickname: string | null }, { id: number }, UserTables, UserJoins>(
  withNickname,
  spec,
  userResourceOptions,
);

describe('a field added in one declaration', () => {
  let db: Kysely<Database>;
  const ids: number[] = [];

  before(async () => {
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqliteDatabase({ file: ':memory:' }) }) });
    await migrateToLatest(db);
    // the migration a contributor writes beside the declaration
    await sql`alter table users add column nickname text`.execute(db);
    const users = new UserRepository(db);
    const people = [
      ['ada@example.com', 'Ada', 'Countess'],
      ['bob@example.com', 'Bob', 'Bobby'],
      ['cy@example.com', 'Cy', null],
    ] as const;
    for (const [index, [email, name, nickname]] of people.entries()) {
      const user = await users.insert({
        publicId: `00000000-0000-4000-8000-00000000000${index}`,
        email,
        name,
        role: 'user',
        employeeId: null,
        isActive: true,
        managerId: null,
        dateJoined: `2026-01-0${index + 1}T00:00:00.000Z`,
      });
      ids.push(user.id);
      // written through the derived update, as a repository's update() does
      await db
        .updateTable('users')
        .set(resource.toColumns({ nickname, modified: user.view.date_joined }) as never)
        .where('id', '=', user.id)
        .execute();
    }
  });
  after(() => db.destroy());

  const names = async (params: Record<string, string>, narrowing?: ListNarrowing) => {
    const { records } = await resource.page(db, db.selectFrom('users as u'), parseListQuery(spec, params), narrowing);
    return records.map(({ view }) => view.name);
  };

  it('refuses, when declared, a list parameter storage has no SQL for', () => {
    const unanswered = listSpecOf(withNickname, {
      filters: { group: { kind: 'uuid' }, shoe_size: { kind: 'integer' } },
      defaultOrdering: [],
    });
    assert.throws(() => defineResource(withNickname, unanswered, userResourceOptions), /no SQL for the list parameters shoe_size/);
  });

  it('is in the list parameters core accepts', () => {
    assert.deepEqual(spec.filters.nickname, { kind: 'string' });
    assert.ok(spec.ordering.includes('nickname'));
    assert.equal(spec.search, true);
    assert.deepEqual(catalogue.fields.nickname, { type: 'string', nullable: true });
  });

  it('is read into the view', async () => {
    const row = await resource.read(db).where('u.id', '=', ids[1]!).executeTakeFirstOrThrow();
    assert.equal(resource.toRecord(row).view.nickname, 'Bobby');
  });

  it('filters, sorts and is searched in lists', async () => {
    assert.deepEqual(await names({ nickname: 'Bobby' }), ['Bob']);
    assert.deepEqual(await names({ ordering: '-nickname' }), ['Ada', 'Bob', 'Cy']);
    assert.deepEqual(await names({ ordering: 'nickname' }), ['Cy', 'Bob', 'Ada']);
    assert.deepEqual(await names({ search: 'COUNT' }), ['Ada']);
  });

  it('is a report field, filtered and ordered in SQL', async () => {
    assert.deepEqual(await names({}, { rql: compileRql('ilike(nickname,*obb*)', catalogue) }), ['Bob']);
    assert.deepEqual(await names({}, { rql: compileRql('eq(nickname,null())', catalogue) }), ['Cy']);
    assert.deepEqual(await names({}, { rql: compileRql('ilike(nickname,*o*),ordering(-nickname)', catalogue) }), ['Ada', 'Bob']);
  });
});

describe('a row read into a record', () => {
  // a field of every kind, and a name that is no JavaScript identifier, to the built reader
  const shape = z.object({
    public_id: z.string(),
    "it's": z.string().nullable(),
    is_open: z.boolean(),
    seats: z.number().nullable(),
    labels: z.array(z.string()),
    owner: z.object({ public_id: z.string(), name: z.string() }).nullable(),
  });
  const odd = defineResource<Record<string, unknown>, { id: number; ownerId: number | null }, { r: 'users' }>(
    shape,
    listSpecOf(shape, { filters: {}, defaultOrdering: [] }),
    // a table the database need not have: only the row reader is read here
    {
      table: 'rooms',
      alias: 'r',
      internal: { id: 'r.id', ownerId: 'r.owner_id' },
      fields: { labels: { json: true } },
      references: { owner: referenceTo('users', 'o', 'r.owner_id' as never, 'left') },
      tiebreak: 'r.id',
    } as unknown as ResourceOptions<{ r: 'users' }>,
  );

  it('has the view’s types, in the schema’s order, beside the internal keys', () => {
    const row = {
      __id: 7,
      __ownerId: 3,
      public_id: 'p',
      "it's": 'quoted',
      is_open: 1,
      seats: '12',
      labels: '["a","b"]',
      owner__public_id: 'o',
      owner__name: 'Olga',
    };
    const record = odd.toRecord(row);
    assert.deepEqual(record.internal, { id: 7, ownerId: 3 });
    assert.deepEqual(record.view, {
      public_id: 'p',
      "it's": 'quoted',
      is_open: true,
      seats: 12,
      labels: ['a', 'b'],
      owner: { public_id: 'o', name: 'Olga' },
    });
    assert.deepEqual(Object.keys(record.view), Object.keys(shape.shape), 'the order the JSON and its ETag follow');
  });

  it('reads NULL and absent columns as null, and a reference without its row as null', () => {
    const { view } = odd.toRecord({
      __id: 1,
      __ownerId: null,
      public_id: 'p',
      is_open: 0,
      seats: null,
      labels: null,
      owner__public_id: null,
    });
    assert.deepEqual(view, { public_id: 'p', "it's": null, is_open: false, seats: null, labels: null, owner: null });
  });
});
