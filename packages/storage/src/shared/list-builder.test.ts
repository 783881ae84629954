import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { contentListSpec, isLecternError, parseListQuery, type Storage } from '@lectern/core';
import { everyItem } from '@lectern/core/ports';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { isQueryTooLarge } from './list-builder.ts';

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
});
