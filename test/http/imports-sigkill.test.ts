/**
 * An import survives SIGKILL: a real server receives a large users file, is killed at random
 * moments while it processes it and started again on the same database under the same instance
 * id; the import must end with every row processed exactly once and every user created once.
 *
 * The moments are random points of the import's progress: ten row counts drawn between 2 % and
 * 80 % of the file. The test reads the import's progress from the database every few
 * milliseconds and kills the server a random few milliseconds after the progress passes the
 * next count, so a kill falls anywhere within a chunk's transaction, or, when a restarted
 * server's first chunk has already passed the next count, while it starts and takes the import
 * back. (Wall-clock moments would not do: at 15 000 rows a second a restarted server finishes a
 * 50 000-row file within a few kills. Nor would the API: on SQLite it answers between chunks.)
 * LECTERN_IMPORT_KILLS sets the number of kills (10) and LECTERN_IMPORT_ROWS the rows (50 000).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { queryDatabase } from '../helpers/database.ts';
import { ApiClient, startServer, type TestServer } from '../helpers/server.ts';

const KILLS = Number(process.env.LECTERN_IMPORT_KILLS ?? 10);
const ROWS = Number(process.env.LECTERN_IMPORT_ROWS ?? 50_000);

describe('imports under SIGKILL', () => {
  let server: TestServer | undefined;
  after(async () => server?.kill());

  it(`${ROWS} users, the server killed ${KILLS} times at random moments: every row once`, async () => {
    const start = (dbFile?: string) => startServer({ instances: 1, instanceIds: ['kill-trial'], ...(dbFile ? { dbFile } : {}) });
    server = await start();
    const { dbFile, adminToken } = server;
    const prefix = `k${Date.now()}`;
    const csv = `email,name\n${Array.from({ length: ROWS }, (_, i) => `${prefix}.${i}@trial.example.com,Row ${i}`).join('\n')}\n`;
    const upload = await server.api.request('POST', '/api/v2/imports/?kind=users', { raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(upload.status, 202, upload.text);
    const id = upload.body.id;

    const started = performance.now();
    const moments = Array.from({ length: KILLS }, () => Math.round(ROWS * (0.02 + 0.78 * Math.random()))).sort((a, b) => a - b);
    const seen: number[] = [];
    const progress = async () =>
      (
        await queryDatabase<{ done_through: number; status: string }>(
          dbFile,
          'select done_through, status from imports where public_id = ?',
          [id],
        )
      )[0]!;
    for (const moment of moments) {
      let now = await progress();
      while (now.done_through < moment && now.status !== 'completed') {
        await new Promise((resolve) => setTimeout(resolve, 2));
        now = await progress();
      }
      seen.push(now.status === 'completed' ? ROWS : Number(now.done_through));
      if (now.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      await server.kill();
      server = await start(dbFile);
    }
    const api = new ApiClient(server.url, adminToken);
    let done: any;
    for (const deadline = Date.now() + 600_000; ;) {
      done = (await api.get(`/api/v2/imports/${id}/`)).body;
      if (done.status !== 'running' && done.status !== 'pending') break;
      assert.ok(Date.now() < deadline, JSON.stringify(done));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.deepEqual(
      [done.processed, done.created, done.existing, done.failed],
      [ROWS, ROWS, 0, 0],
      `processed at the kills: ${seen.join(', ')}`,
    );
    const midImport = seen.filter((processed) => processed < ROWS).length;
    console.log(
      `import trial: ${JSON.stringify({ rows: ROWS, kills: KILLS, midImport, processedAtKills: seen, seconds: Math.round((performance.now() - started) / 1000) })}`,
    );
    assert.equal(midImport, KILLS, `every kill landed mid-import: ${seen.join(', ')}`);

    const users = await queryDatabase(dbFile, `select count(*) as n, count(distinct email) as d from users where email like ?`, [
      `${prefix}.%`,
    ]);
    assert.deepEqual([Number(users[0].n), Number(users[0].d)], [ROWS, ROWS], 'each user once');
    const response = await fetch(`${server.url}/api/v2/imports/${id}/report/`, { headers: { authorization: `Bearer ${adminToken}` } });
    const rows: string[][] = parse(await response.text());
    assert.equal(rows.length, ROWS + 1);
    assert.ok(
      rows.slice(1).every((row, i) => row[0] === String(i + 1) && row[1] === 'created'),
      'one created line per row, in order',
    );
  });
});
