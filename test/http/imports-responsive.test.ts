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
import { startServer, type ApiClient, type TestServer } from '../helpers/server.ts';

// enough chunks that the samples below fit in the import even when sampling is slow (a busy machine)
const ROWS = 40_000;
const SAMPLES = 10;

/** Uploads `rows` users to import, their emails `<prefix>.<n>@…`; answers the import's id and the prefix. */
async function uploadUsers(api: ApiClient, rows: number, tag: string): Promise<{ id: string; prefix: string }> {
  const prefix = `${tag}${Date.now()}`;
  const csv = `email,name\n${Array.from({ length: rows }, (_, i) => `${prefix}.${i}@${tag}.example.com,Row ${i}`).join('\n')}\n`;
  const upload = await api.request('POST', '/api/v2/imports/?kind=users', { raw: csv, headers: { 'content-type': 'text/csv' } });
  assert.equal(upload.status, 202, upload.text);
  return { id: upload.body.id, prefix };
}

/**
 * Imports ROWS users and, each time a chunk has committed (the next one starts then), sends
 * `request`, up to SAMPLES times; answers how many were answered before the import's progress moved
 * again. With `inChunk`, the request waits first until a transaction holds the write lock (the next
 * chunk, which the background thread may begin after other work, such as a checkpoint).
 */
async function sampleDuringImport(
  { api, dbFile }: TestServer,
  request: (n: number) => Promise<void>,
  { inChunk = false } = {},
): Promise<{ first: number; samples: number }> {
  const { id } = await uploadUsers(api, ROWS, inChunk ? 'chunk' : 'order');
  const progress = async () =>
    Number(
      (await queryDatabase<{ done_through: number }>(dbFile, 'select done_through from imports where public_id = ?', [id]))[0]!
        .done_through,
    );
  // the import's state, for a message when it stops moving
  const stuck = async () => JSON.stringify((await api.get(`/api/v2/imports/${id}/`)).body);
  let before = 0;
  let first = 0;
  let samples = 0;
  while (samples < SAMPLES && before < ROWS) {
    // the last chunk may have committed during the request below, and then nothing moves again
    const deadline = Date.now() + 60_000;
    let now = await progress();
    while (now === before) {
      if (Date.now() > deadline) assert.fail(`the import stopped at row ${now}: ${await stuck()}`);
      now = await progress();
    }
    if (inChunk) {
      while (!(await writeLockHeld(dbFile))) if (Date.now() > deadline) assert.fail(`no chunk took the write lock: ${await stuck()}`);
      now = await progress();
    }
    if (now >= ROWS) break;
    before = now;
    await request(samples);
    const after = await progress();
    samples++;
    if (after === before) first++;
    before = after;
  }
  assert.ok(samples >= SAMPLES / 2, `the import finished after ${samples} samples: too few chunks to tell`);
  for (let state = await api.get(`/api/v2/imports/${id}/`); ; state = await api.get(`/api/v2/imports/${id}/`)) {
    if (state.body.status === 'completed') {
      assert.deepEqual([state.body.created, state.body.failed], [ROWS, 0]);
      return { first, samples };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const onPostgres = process.env.LECTERN_TEST_DATABASE === 'postgres';
/** Rows an import of users reads, checks and writes together in a chunk (docs/imports.md). */
const BATCH_ROWS = 500;

/**
 * Imports ROWS users and, up to SAMPLES times: waits until a chunk holds the write lock and sends
 * `write`, which meets that chunk; then waits until the next chunk holds the lock and answers how
 * many rows it committed. Answers those counts.
 */
async function chunksAfterWrites({ api, dbFile }: TestServer, write: (n: number) => Promise<void>): Promise<number[]> {
  const { id } = await uploadUsers(api, ROWS, 'met');
  const progress = async () =>
    Number(
      (await queryDatabase<{ done_through: number }>(dbFile, 'select done_through from imports where public_id = ?', [id]))[0]!
        .done_through,
    );
  const stuck = async () => JSON.stringify((await api.get(`/api/v2/imports/${id}/`)).body);
  const chunkRunning = async (deadline: number) => {
    while (!(await writeLockHeld(dbFile))) if (Date.now() > deadline) assert.fail(`no chunk took the write lock: ${await stuck()}`);
  };
  const committed: number[] = [];
  for (let n = 0; committed.length < SAMPLES; n++) {
    const deadline = Date.now() + 60_000;
    await chunkRunning(deadline);
    await write(n);
    await chunkRunning(deadline);
    const before = await progress();
    if (before >= ROWS) break;
    let now = before;
    while (now === before) {
      if (Date.now() > deadline) assert.fail(`the import stopped at row ${now}: ${await stuck()}`);
      now = await progress();
    }
    committed.push(now - before);
  }
  assert.ok(committed.length >= SAMPLES / 2, `the import finished after ${committed.length} samples: too few chunks to tell`);
  for (
    let state = await api.get(`/api/v2/imports/${id}/`);
    state.body.status !== 'completed';
    state = await api.get(`/api/v2/imports/${id}/`)
  ) {
    assert.notEqual(state.body.status, 'failed', JSON.stringify(state.body));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return committed;
}

describe('requests during an import', () => {
  let server: TestServer | undefined;
  after(async () => server?.stop());
  const userPath = async () => {
    const me = await server!.api.get('/api/v2/me/');
    assert.equal(me.status, 200, me.text);
    return `/api/v2/users/${me.body.user.public_id}/`;
  };

  it('a GET by id completes before the running chunk commits', async () => {
    server = await startServer({ instances: 1 });
    const path = await userPath();
    const { first, samples } = await sampleDuringImport(server, async () => {
      const read = await server!.api.get(path);
      assert.equal(read.status, 200, read.text);
    });
    // every read should come first; a machine too busy to schedule the request thread for a whole
    // chunk may lose one, while a server that runs chunks on that thread loses all of them
    assert.ok(first >= samples - 1, `${first} of ${samples} reads answered before the chunk committed`);
  });

  it("a write sent while a chunk runs its first batch goes first: the chunk gives way and commits none of that batch's rows", async () => {
    // A chunk that gives way in its first batch commits none of its rows before the rename is
    // answered; one that does not commits that batch first.
    const path = await userPath();
    const { first, samples } = await sampleDuringImport(
      server!,
      async (n) => {
        const renamed = await server!.api.patch(path, { name: `First ${n}` });
        assert.equal(renamed.status, 200, renamed.text);
      },
      { inChunk: true },
    );
    // a sample is lost when the lock seen was another write's, or the rename came after the first
    // batch (a busy machine); a chunk that never gives way in its first batch loses nearly all
    assert.ok(first >= samples / 2, `${first} of ${samples} renames answered before the chunk's first batch committed`);
  });

  // SQLite's rule: its COMMIT writes out every page the chunk changed, which PostgreSQL's does not
  // (docs/scaling.md, "After a write, a chunk is one batch"); there a chunk keeps its budget
  it(
    'after a write met a chunk, the next chunk commits one batch, so a write that comes during it waits for one batch (SQLite)',
    { skip: onPostgres && 'a rule of SQLite only' },
    async () => {
      // A chunk otherwise takes batches for a quarter of a second and a write arriving during it waits
      // for the commit of all of them.
      const path = await userPath();
      const committed = await chunksAfterWrites(server!, async (n) => {
        const renamed = await server!.api.patch(path, { name: `Met ${n}` });
        assert.equal(renamed.status, 200, renamed.text);
      });
      // a sample is lost when the lock seen was another write's (the rename then met no chunk) or the
      // next chunk began over a second later (a busy machine); without the rule nearly all are
      const oneBatch = committed.filter((rows) => rows <= BATCH_ROWS).length;
      assert.ok(
        oneBatch >= committed.length / 2,
        `${oneBatch} of ${committed.length} chunks after a write committed one batch: ${committed.join(', ')}`,
      );
    },
  );

  it('keeps every row and its outcome exactly once while writes come and go between and within its batches', async () => {
    // a rename after another, for as long as the import runs: each comes to wait for the import's
    // transaction, which then stops its batch part-way, undoes it and does it again in the next
    // chunk (docs/scaling.md, "Long work gives way"); a rename sent to the other of the two
    // PostgreSQL servers ends the chunk after the batch instead. Either way nothing may be lost,
    // doubled or reported twice.
    const { api, dbFile } = server!;
    const path = await userPath();
    const rows = 20_000;
    const { id, prefix } = await uploadUsers(api, rows, 'writes');
    let renames = 0;
    let finished: { created: number; failed: number; status: string } | undefined;
    for (let n = 0; !finished; n++) {
      const renamed = await api.patch(path, { name: `Renamed ${n}` });
      assert.equal(renamed.status, 200, renamed.text);
      renames++;
      const state = await api.get(`/api/v2/imports/${id}/`);
      if (state.body.status === 'completed' || state.body.status === 'failed') finished = state.body;
      // spaced so that they come at every point of a chunk: in its first batch, which gives way
      // only so many chunks in a row, and in the batches after it
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
    const report = await fetch(`${api.baseUrl}/api/v2/imports/${id}/report/`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const lines = (await report.text()).trim().split('\n').slice(1);
    assert.equal(lines.length, rows);
    const rowNumbers = lines.map((line) => Number(line.split(',')[0]));
    assert.equal(new Set(rowNumbers).size, rows, 'each row reported once');
    assert.ok(lines.every((line) => line.split(',')[1] === 'created'));
  });
});
