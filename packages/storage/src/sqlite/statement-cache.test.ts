import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { CachedStatementDatabase } from './statement-cache.ts';

describe('cached statements', () => {
  const setup = () => {
    const raw = new BetterSqlite3(':memory:');
    raw.exec(`create table t (id integer primary key, name text, score real, data blob);
              insert into t (name, score, data) values ('a', 1.5, x'00ff'), (null, null, null), ('"c"', -2, x'')`);
    return { raw, cached: new CachedStatementDatabase(raw), plain: new BetterSqlite3(raw.serialize()) };
  };

  it('return the rows better-sqlite3 builds, for every kind of column list', () => {
    const { cached, plain } = setup();
    for (const sql of [
      'select "t"."id" as "__id", "t"."name", "t"."score" as "score", "t"."data" from "t" where "t"."id" > ? order by "t"."id"',
      'select t.id as x, t.name as x, t.score from t where t.id > ? order by t.id',
      'select t.id as "__proto__", t.name from t where t.id > ?',
      'select * from t where id > ? order by id',
      'select count(*) as n from t where id > ?',
    ]) {
      const expected = plain.prepare(sql).all([0]);
      assert.deepEqual(cached.prepare(sql).all([0]), expected, sql);
      assert.deepEqual([...cached.prepare(sql).iterate([0])], expected, sql);
      assert.deepEqual(cached.prepare(sql).first([0]), expected.slice(0, 1), sql);
      assert.deepEqual(cached.prepare(sql).first([99]), plain.prepare(sql).all([99]).slice(0, 1), sql);
    }
    const [proto] = cached.prepare('select t.id as "__proto__", t.name from t where t.id > ?').all([0]) as object[];
    assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  });

  it('run writes and answer with the columns a schema change adds', () => {
    const { cached } = setup();
    const select = 'select * from t where id = ?';
    assert.deepEqual(Object.keys(cached.prepare(select).all([1])[0] as object), ['id', 'name', 'score', 'data']);
    assert.equal(cached.prepare('update t set name = ? where id = ?').run(['b', 1]).changes, 1);
    cached.prepare('alter table t add column extra text').run([]);
    assert.deepEqual(cached.prepare(select).all([1]), [{ id: 1, name: 'b', score: 1.5, data: Buffer.from([0, 255]), extra: null }]);
  });

  it('run a lone read at once only when no transaction is open and no statement is being stepped through', () => {
    const { raw, cached } = setup();
    const read = 'select t.name from t where t.id = ?';
    assert.deepEqual(cached.loneRead(read, [1], false), [{ name: 'a' }]);
    cached.prepare('begin immediate').run([]);
    cached.prepare('update t set name = ? where id = ?').run(['uncommitted', 1]);
    assert.equal(cached.loneRead(read, [1], false), undefined, 'inside a transaction the read waits its turn');
    cached.prepare('rollback').run([]);
    assert.equal(raw.inTransaction, false);
    const cursor = cached.prepare('select t.id from t where t.id > ? order by t.id').iterate([0]);
    cursor.next();
    assert.equal(cached.loneRead(read, [1], false), undefined, 'a statement being stepped through holds the connection');
    cursor.return?.(undefined);
    assert.deepEqual(cached.loneRead(read, [1], false), [{ name: 'a' }]);
    assert.deepEqual(
      cached.loneRead('select t.name from t where t.id > ? order by t.id', [0], true),
      [{ name: 'a' }],
      'the first row alone',
    );
    assert.equal(cached.loneRead('update t set name = ? where id = ?', ['x', 1], false), undefined, 'a write is never a lone read');
    assert.equal(raw.prepare('select name from t where id = 1').pluck().get(), 'a');
  });
});
