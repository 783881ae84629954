/** `lectern backup` copies a live database consistently while the server keeps taking writes. */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, startServer, tempDir, uniqueEmail } from '../helpers/server.ts';

describe('lectern backup', () => {
  it('copies a database under concurrent writes: the copy passes integrity_check and has every earlier row', async () => {
    const server = await startServer();
    try {
      const before: string[] = [];
      for (let batch = 0; batch < 10; batch++) {
        const emails = Array.from({ length: 20 }, () => uniqueEmail('before'));
        const responses = await Promise.all(emails.map((email) => server.api.post('/api/v2/users/', { email, name: 'Before Backup' })));
        for (const response of responses) assert.equal(response.status, 201, response.text);
        before.push(...emails);
      }

      // a writer that keeps the server busy for the whole backup
      let writing = true;
      let writtenDuring = 0;
      const writer = (async () => {
        while (writing) {
          const response = await server.api.post('/api/v2/users/', { email: uniqueEmail('during'), name: 'During Backup' });
          assert.equal(response.status, 201, response.text);
          writtenDuring++;
        }
      })();
      while (writtenDuring === 0) await new Promise((resolve) => setTimeout(resolve, 5));

      const copy = join(tempDir(), 'copy.db');
      const result = await runCli(['backup', '--db', server.dbFile, copy]);
      writing = false;
      await writer;
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Backed up .* to .*copy\.db \(\d+ pages\)\.\n$/);
      assert.ok(writtenDuring > 1, 'writes went on while the backup ran');

      const db = new Database(copy, { readonly: true });
      try {
        assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
        const present = new Set((db.prepare('select email from users').all() as Array<{ email: string }>).map((row) => row.email));
        for (const email of before) assert.ok(present.has(email), `${email}, written before the backup, is in the copy`);
      } finally {
        db.close();
      }
      const listed = await runCli(['tokens', 'list', '--db', copy, '--json']);
      assert.equal(listed.code, 0, `the copy opens as a Lectern database: ${listed.stderr}`);
      assert.equal(JSON.parse(listed.stdout)[0].name, 'bootstrap');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('never overwrites a file and never reads a database that is not there', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'lectern.db');
    assert.equal((await runCli(['migrate', '--db', dbFile])).code, 0);
    const existing = join(dir, 'precious.db');
    writeFileSync(existing, 'the only good backup');
    const overwrite = await runCli(['backup', '--db', dbFile, existing]);
    assert.equal(overwrite.code, 2);
    assert.equal(overwrite.stderr, `error: ${existing} already exists; choose a new file name\n`);

    const typo = join(dir, 'lectren.db');
    const missing = await runCli(['backup', '--db', typo, join(dir, 'out.db')]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `error: no database at ${typo}\n`);
    assert.equal(existsSync(typo), false);
    assert.equal(existsSync(join(dir, 'out.db')), false);
  });
});
