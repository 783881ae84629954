import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a database', () => {
  it('skips the migrator only when exactly the known migrations are applied', async () => {
    const file = join(dir, 'current.db');
    await (await openSqliteStorage({ file })).close();
    // current: opens again
    await (await openSqliteStorage({ file })).close();

    const raw = new BetterSqlite3(file);
    const last = raw.prepare('select name, timestamp from kysely_migration order by name desc limit 1').get() as {
      name: string;
      timestamp: string;
    };
    // a migration recorded as not applied goes to the migrator, which runs it (and here fails, since
    // its tables are there): the open is not taken for current
    raw.prepare('delete from kysely_migration where name = ?').run(last.name);
    await assert.rejects(openSqliteStorage({ file }), new RegExp(`migration ${last.name} failed`));
    raw.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(last.name, last.timestamp);

    // a migration this build does not know (a newer build's) is refused by the migrator
    raw.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('9999-from-the-future', last.timestamp);
    await assert.rejects(openSqliteStorage({ file }), /migration/i);
    raw.prepare('delete from kysely_migration where name = ?').run('9999-from-the-future');
    raw.close();

    await (await openSqliteStorage({ file })).close();
  });
});
