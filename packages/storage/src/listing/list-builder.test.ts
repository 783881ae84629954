import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { assignmentListSpec, contentListSpec, isLecternError, parseListQuery, type Storage } from '@lectern/core';
import { everyItem } from '@lectern/core/ports';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { isQueryTooLarge, pageIndex } from './list-builder.ts';
import type { ListDefinition } from './list-definition.ts';
import type { Tables } from '../schema.ts';

describe('list builder', () => {
  let storage: Storage | undefined;
  after(async () => storage?.close());

  it('turns a list the database finds too large into a 400, not a 500', async () => {
    storage = await openSqliteStorage({ file: ':memory:' });
    const query = parseListQuery(contentListSpec, {});
    // past the parameter's own limit, as a caller that skips parseListQuery could send it
    query.filters.tag_all = Array.from({ length: 2000 }, (_, i) => `t${i}`);
    await assert.rejects(storage.content.list(query, everyItem), (error) => isLecternError(error) && error.code === 'bad_request');
    query.filters.tag_all = ['t0'];
    assert.equal((await storage.content.list(query, everyItem)).total, 0);
  });

  it("recognises only the database's size limits", () => {
    const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });
    assert.ok(isQueryTooLarge(sqliteError('SQLITE_ERROR', 'Expression tree is too large (maximum depth 1000)')));
    assert.ok(isQueryTooLarge(sqliteError('SQLITE_ERROR', 'too many SQL variables')));
    assert.ok(isQueryTooLarge(sqliteError('SQLITE_ERROR', 'parser stack overflow')));
    assert.ok(isQueryTooLarge(sqliteError('SQLITE_ERROR', 'LIKE or GLOB pattern too complex')));
    assert.ok(isQueryTooLarge(sqliteError('SQLITE_TOOBIG', 'string or blob too big')));
    assert.ok(!isQueryTooLarge(sqliteError('SQLITE_ERROR', 'no such column: x')));
    assert.ok(!isQueryTooLarge(sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: too many')));
    assert.ok(!isQueryTooLarge('too large'));
  });

  it('names the index SQLite reads a page through from what the list knows', () => {
    const def: ListDefinition<Tables<{ a: 'assignments' }>, 'a'> = {
      filters: {},
      ordering: { created: 'a.created', due_date: 'a.due_date' },
      nullable: new Set(['due_date']),
      tiebreak: 'a.id',
      indexes: { narrow: { user: 'by_user' }, ordered: { created: 'by_created', due_date: 'by_due_date' } },
    };
    const query = (params: Record<string, string>) => parseListQuery(assignmentListSpec, params);
    const million = { all: 1_000_000 };
    assert.equal(pageIndex(query({}), def, million, 1_000_000), 'by_created', 'every row matches: walk the order');
    assert.equal(pageIndex(query({ ordering: '-created' }), def, million, 200_000), 'by_created', '1 in 5: about 125 rows');
    assert.equal(pageIndex(query({}), def, million, 1_000), undefined, '1 in 1 000: sorting 1 000 beats walking 25 000');
    assert.equal(pageIndex(query({}), def, million, 10_000), 'by_created', 'walking 2 500 rows beats sorting 10 000');
    assert.equal(pageIndex(query({ page: '400', page_size: '100' }), def, million, 200_000), undefined, 'deep pages sort');
    assert.equal(pageIndex(query({ ordering: 'due_date' }), def, million, 1_000_000), undefined, 'a nullable key is never walked');
    assert.equal(pageIndex(query({}), def, {}, 1_000_000), undefined, 'no size, no walk');
    assert.equal(pageIndex(query({}), def, million), undefined, 'no total (the count), no walk');
    const user = query({ user: '00000000-0000-4000-8000-000000000001' });
    assert.equal(pageIndex(user, def, million), 'by_user', 'a narrow filter, for the count too');
    assert.equal(pageIndex(query({}), def, { narrow: 'mine' }), 'mine', "the repository's own narrow condition");
    assert.equal(pageIndex(query({}), { ...def, indexes: undefined }, { narrow: 'mine' }), undefined, 'PostgreSQL: never a hint');
  });
});
