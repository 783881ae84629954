/**
 * A request is answered while an import's chunk is in progress, not after it: the import runs off
 * the thread that serves requests (docs/scaling.md, "Where the work runs").
 *
 * The test asserts an order, never a duration. It watches the import's progress in the database;
 * the moment a chunk has committed, the next one is starting, and the test reads a user by id.
 * When the read answers before the progress moves again, it was served while that chunk ran. On a
 * server that runs chunks on its request thread, the read waits for the chunk's commit every time.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { queryDatabase, writeLockHeld } from '../helpers/database.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// enough chunks that the samples below fit in the import even when sampling is slow (a busy machine)
const ROWS = 40_000;
const SAMPLES = 10;

describe('requests during an import', () => {
  let server: TestServer | undefined;
  after(async () => server?.stop());

  it('a GET by id completes before the running chunk commits', async () => {
    server = await startServer({ instances: 1 });
    const { api, dbFile } = server;
    const me = await api.get('/api/v2/me/');
    assert.equal(me.status, 200, me.text);
    const userPath = `/api/v2/users/${me.body.user.public_id}/`;
    const prefix = `r${Date.now()}`;
    const csv = `email,name\n${Array.from({ length: ROWS }, (_, i) => `${prefix}.${i}@order.example.com,Row ${i}`).join('\n')}\n`;
    const upload = await api.request('POST', '/api/v2/imports/?kind=users', { raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(upload.status, 202, upload.text);
    const progress = async () =>
      Number(
        (
          await queryDatabase<{ done_through: number }>(dbFile, 'select done_through from imports where public_id = ?', [upload.body.id])
        )[0]!.done_through,
      );

    let before = 0;
    let answeredFirst = 0;
    let samples = 0;
    // the import's state, for a message when it stops moving
    const stuck = async () => JSON.stringify((await api.get(`/api/v2/imports/${upload.body.id}/`)).body);
    while (samples < SAMPLES && before < ROWS) {
      // wait for a chunk to commit: the next one starts at once. The last one may have committed
      // during the read below, and then nothing moves again.
      const deadline = Date.now() + 60_000;
      let now = await progress();
      while (now === before) {
        if (Date.now() > deadline) assert.fail(`the import stopped at row ${now}: ${await stuck()}`);
        now = await progress();
      }
      if (now >= ROWS) break;
      before = now;
      const read = await api.get(userPath);
      assert.equal(read.status, 200, read.text);
      const afterRead = await progress();
      samples++;
      if (afterRead === before) answeredFirst++;
      before = afterRead;
    }
    assert.ok(samples >= SAMPLES / 2, `the import finished after ${samples} samples: too few chunks to tell`);
    // every read should come first; a machine too busy to schedule the request thread for a whole
    // chunk may lose one, while a server that runs chunks on that thread loses all of them
    assert.ok(answeredFirst >= samples - 1, `${answeredFirst} of ${samples} reads answered before the chunk committed`);

    for (let state = await api.get(`/api/v2/imports/${upload.body.id}/`); ; state = await api.get(`/api/v2/imports/${upload.body.id}/`)) {
      if (state.body.status === 'completed') {
        assert.equal(state.body.created, ROWS);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it("a write sent while a chunk runs its first batch goes first: the chunk gives way and commits none of that batch's rows", async () => {
    // Each time a chunk commits, the test waits for the next to take the write lock (the background
    // thread may first do other work, such as a checkpoint, which a write does not wait for) and
    // renames a user then, during the chunk's first batch. A chunk that gives way there commits none
    // of its rows before the rename is answered; one that does not commits that batch first.
    const { api, dbFile } = server!;
    const me = await api.get('/api/v2/me/');
    const userPath = `/api/v2/users/${me.body.user.public_id}/`;
    const prefix = `f${Date.now()}`;
    const csv = `email,name\n${Array.from({ length: ROWS }, (_, i) => `${prefix}.${i}@first.example.com,Row ${i}`).join('\n')}\n`;
    const upload = await api.request('POST', '/api/v2/imports/?kind=users', { raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(upload.status, 202, upload.text);
    const progress = async () =>
      Number(
        (
          await queryDatabase<{ done_through: number }>(dbFile, 'select done_through from imports where public_id = ?', [upload.body.id])
        )[0]!.done_through,
      );
    let before = 0;
    let wentFirst = 0;
    let samples = 0;
    for (let n = 0; samples < SAMPLES && before < ROWS; n++) {
      const deadline = Date.now() + 60_000;
      let now = await progress();
      while (now === before) {
        if (Date.now() > deadline) assert.fail(`the import stopped at row ${now}`);
        now = await progress();
      }
      if (now >= ROWS) break;
      while (!(await writeLockHeld(dbFile))) if (Date.now() > deadline) assert.fail('no chunk took the write lock');
      before = await progress();
      if (before >= ROWS) break;
      const renamed = await api.patch(userPath, { name: `First ${n}` });
      assert.equal(renamed.status, 200, renamed.text);
      const afterWrite = await progress();
      samples++;
      if (afterWrite === before) wentFirst++;
      before = afterWrite;
    }
    assert.ok(samples >= SAMPLES / 2, `the import finished after ${samples} samples: too few chunks to tell`);
    // a sample is lost when the lock seen was another write's, or the rename came after the first
    // batch (a busy machine); a chunk that never gives way in its first batch loses nearly all
    assert.ok(wentFirst >= samples / 2, `${wentFirst} of ${samples} renames answered before the chunk's first batch committed`);
    for (let state = await api.get(`/api/v2/imports/${upload.body.id}/`); ; state = await api.get(`/api/v2/imports/${upload.body.id}/`)) {
      if (state.body.status === 'completed') {
        assert.equal(state.body.created, ROWS);
        assert.equal(state.body.failed, 0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('keeps every row and its outcome exactly once while writes come and go between and within its batches', async () => {
    // a rename after another, for as long as the import runs: each comes to wait for the import's
    // transaction, which then stops its batch part-way, undoes it and does it again in the next
    // chunk (docs/scaling.md, "Long work gives way"); a rename sent to the other of the two
    // PostgreSQL servers ends the chunk after the batch instead. Either way nothing may be lost,
    // doubled or reported twice.
    const { api, dbFile } = server!;
    const me = await api.get('/api/v2/me/');
    const userPath = `/api/v2/users/${me.body.user.public_id}/`;
    const rows = 20_000;
    const prefix = `w${Date.now()}`;
    const csv = `email,name\n${Array.from({ length: rows }, (_, i) => `${prefix}.${i}@writes.example.com,Row ${i}`).join('\n')}\n`;
    const upload = await api.request('POST', '/api/v2/imports/?kind=users', { raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(upload.status, 202, upload.text);
    let renames = 0;
    let finished: { created: number; failed: number; status: string } | undefined;
    for (let n = 0; !finished; n++) {
      const renamed = await api.patch(userPath, { name: `Renamed ${n}` });
      assert.equal(renamed.status, 200, renamed.text);
      renames++;
      const state = await api.get(`/api/v2/imports/${upload.body.id}/`);
      if (state.body.status === 'completed' || state.body.status === 'failed') finished = state.body;
      // spaced so that some arrive after a chunk's first batch, which never gives way
      else await new Promise((resolve) => setTimeout(resolve, 20 + (n % 5) * 30));
    }
    assert.equal(finished.status, 'completed');
    assert.ok(renames > 1, `only ${renames} rename ran beside the import`);
    assert.equal(finished.created, rows);
    assert.equal(finished.failed, 0);
    const stored = await queryDatabase<{ users: number; emails: number }>(
      dbFile,
      `select count(*) as users, count(distinct email) as emails from users where email like '${prefix}.%'`,
    );
    assert.deepEqual(
      stored.map((row) => ({ users: Number(row.users), emails: Number(row.emails) })),
      [{ users: rows, emails: rows }],
    );
    const report = await fetch(`${api.baseUrl}/api/v2/imports/${upload.body.id}/report/`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const lines = (await report.text()).trim().split('\n').slice(1);
    assert.equal(lines.length, rows);
    const rowNumbers = lines.map((line) => Number(line.split(',')[0]));
    assert.equal(new Set(rowNumbers).size, rows, 'each row reported once');
    assert.ok(lines.every((line) => line.split(',')[1] === 'created'));
  });
});
