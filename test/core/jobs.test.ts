/** The job engine as another area uses it: registering a kind, per-item failures, faults, resume. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern, fieldError, type Lectern, type Storage, type Stores } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';
import { writeLockHeld } from '../helpers/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-jobs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function open(file: string, seen: unknown[]): Promise<Lectern> {
  // retried at once: the waits between retries are for a busy database, not for this test
  const lectern = createLectern({
    storage: await openSqliteStorage({ file }),
    config: { jobs: { chunkSize: 3, retryDelaysMs: [0, 0, 0] } },
  });
  lectern.jobs.register({
    name: 'echoes',
    maxItems: 10,
    scope: 'content:read',
    handle: async (_tx, _ctx, item) => {
      if (item === 'boom') throw new Error('disk on fire');
      if (typeof item !== 'number') throw fieldError('item', 'Must be a number.');
      seen.push(item);
      return { publicId: `echo-${item}`, created: item % 2 === 1 };
    },
  });
  return lectern;
}

describe('job engine', () => {
  it('runs a registered kind: domain errors fail the item, the job completes with exact counts', async () => {
    const seen: unknown[] = [];
    const lectern = await open(join(dir, 'a.db'), seen);
    await lectern.start();
    const job = await lectern.jobs.submit(lectern.context(), 'echoes', { echoes: [1, 'x', 2, null, 3, 4, 5] });
    assert.equal(job.status, 'pending');
    await lectern.jobs.idle();
    const done = await lectern.jobs.get(lectern.context(), 'echoes', job.id);
    assert.deepEqual([done.status, done.processed, done.succeeded, done.failed], ['completed', 7, 5, 2]);
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    const items = await lectern.jobs.items(lectern.context(), 'echoes', job.id, {});
    assert.deepEqual(items.meta, { page: 1, page_size: 25, total_count: 7 });
    assert.deepEqual(items.data.slice(0, 2), [
      { index: 0, status: 'succeeded', public_id: 'echo-1', created: true, error: null },
      {
        index: 1,
        status: 'failed',
        public_id: null,
        created: null,
        error: { code: 'validation_error', message: 'item: Must be a number.' },
      },
    ]);
    assert.equal(items.data[2]!.created, false);
    await assert.rejects(lectern.jobs.submit(lectern.context(), 'echoes', { echoes: Array(11).fill(1) }), /validation/);
    await lectern.close();
  });

  it('marks a job failed with error_message when an item hits an unexpected error', async () => {
    const lectern = await open(join(dir, 'b.db'), []);
    await lectern.start();
    const job = await lectern.jobs.submit(lectern.context(), 'echoes', { echoes: [1, 2, 3, 4, 'boom'] });
    await lectern.jobs.idle();
    const done = await lectern.jobs.get(lectern.context(), 'echoes', job.id);
    assert.equal(done.status, 'failed');
    assert.match(done.error_message!, /disk on fire/);
    assert.deepEqual([done.processed, done.succeeded], [3, 3], 'the first chunk committed; the faulty one rolled back');
    await lectern.close();
  });

  it('stores a job before any work, and a later process resumes it', async () => {
    const file = join(dir, 'c.db');
    const first = await open(file, []);
    // never started: the job is stored but no worker runs it (as if the process died at once)
    const job = await first.jobs.submit(first.context(), 'echoes', { echoes: [1, 2, 3, 4] });
    await first.close();
    const seen: unknown[] = [];
    const second = await open(file, seen);
    await second.start();
    await second.jobs.idle();
    const done = await second.jobs.get(second.context(), 'echoes', job.id);
    assert.deepEqual([done.status, done.processed, done.succeeded], ['completed', 4, 4]);
    assert.deepEqual(seen, [1, 2, 3, 4]);
    await second.close();
  });

  it("runs a kind's work before each chunk outside the chunk's transaction, with the write lock free", async () => {
    // an import analyzes its grown tables there: inside the chunk, every write waited for it
    const file = join(dir, 'd.db');
    const lectern = createLectern({ storage: await openSqliteStorage({ file }), config: { jobs: { retryDelaysMs: [0] } } });
    const steps: string[] = [];
    let chunks = 0;
    lectern.jobs.register({
      name: 'chunked',
      maxItems: 0,
      scope: 'content:read',
      handle: () => {
        throw new Error('runs by chunk');
      },
      beforeChunk: async () => void steps.push(`before, lock held: ${await writeLockHeld(file)}`),
      runChunk: async () => {
        steps.push(`chunk, lock held: ${await writeLockHeld(file)}`);
        return ++chunks === 3;
      },
    });
    await lectern.start();
    const job = await lectern.storage.transaction((tx) => lectern.jobs.enqueue(tx, lectern.context(), 'chunked'));
    lectern.jobs.wake(job.id);
    await lectern.jobs.idle();
    assert.deepEqual(steps, [
      'before, lock held: false',
      'chunk, lock held: true',
      'before, lock held: false',
      'chunk, lock held: true',
      'before, lock held: false',
      'chunk, lock held: true',
    ]);
    await lectern.close();
  });
});

/**
 * The submitter's rights as they are when each chunk runs. Items are steps: a step changes the
 * submitter inside the chunk's transaction, so the change lands exactly between two chunks
 * (two items per chunk) with no timing involved.
 */
describe('job engine: the submitter’s current rights', () => {
  let now = new Date('2030-01-01T00:00:00.000Z');
  const clock = { now: () => now };

  async function submitSteps(
    file: string,
    steps: Record<string, (tx: Stores, userId: number, tokenId: number) => Promise<void> | void>,
    items: string[],
  ) {
    const lectern = createLectern({ storage: await openSqliteStorage({ file }), clock, config: { jobs: { chunkSize: 2 } } });
    const rolesSeen: string[] = [];
    lectern.jobs.register({
      name: 'steps',
      maxItems: 50,
      // a scope organizers hold and learners do not, so a demotion can keep or lose the right
      scope: 'insights:read',
      handle: async (tx, ctx, item) => {
        assert.equal(ctx.actor.kind, 'user');
        if (ctx.actor.kind !== 'user') throw new Error('unreachable');
        rolesSeen.push(ctx.actor.role);
        await steps[item as string]?.(tx, ctx.actor.userId, ctx.actor.tokenId!);
        return { publicId: String(item), created: true };
      },
    });
    const email = `submitter-${Math.random().toString(36).slice(2)}@example.com`;
    await lectern.users.create(lectern.context(), { email, name: 'Submitter', role: 'admin' });
    const user = (await lectern.users.findByEmail(email))!;
    const issued = await lectern.tokens.issue({ userId: user.id, role: 'admin', name: 'job', expiresAt: '2030-01-01T01:00:00.000Z' });
    const actor = await lectern.tokens.authenticate(issued.token);
    await lectern.start();
    const job = await lectern.jobs.submit(lectern.context(actor), 'steps', { steps: items });
    await lectern.jobs.idle();
    const done = await lectern.jobs.get(lectern.context(), 'steps', job.id);
    const listed = (await lectern.jobs.items(lectern.context(), 'steps', job.id, { page_size: '100' })).data;
    await lectern.close();
    return { done, rolesSeen, items: listed };
  }

  const modified = () => now.toISOString();

  it('runs each chunk with the role the submitter has then, while it still allows the job', async () => {
    const { done, rolesSeen } = await submitSteps(
      join(dir, 'rights-a.db'),
      { demote: (tx, userId) => tx.users.update(userId, { role: 'organizer', modified: modified() }) },
      ['one', 'demote', 'three', 'four', 'five'],
    );
    assert.deepEqual([done.succeeded, done.failed], [5, 0]);
    assert.deepEqual(rolesSeen, ['admin', 'admin', 'organizer', 'organizer', 'organizer']);
  });

  for (const [name, step, reason] of [
    ['its token is revoked', (tx: Stores, _userId: number, tokenId: number) => tx.tokens.revoke(tokenId, modified()), /revoked/],
    ['its token expires', () => void (now = new Date('2030-01-01T02:00:00.000Z')), /expired/],
    [
      'its user is deactivated',
      (tx: Stores, userId: number) => tx.users.update(userId, { isActive: false, modified: modified() }),
      /deactivated/,
    ],
    [
      'its user is demoted below the job',
      (tx: Stores, userId: number) => tx.users.update(userId, { role: 'user', modified: modified() }),
      /role \(user\)/,
    ],
  ] as const) {
    it(`fails the items left once ${name}`, async () => {
      now = new Date('2030-01-01T00:00:00.000Z');
      const { done, items } = await submitSteps(join(dir, `rights-${name.replace(/\W+/g, '-')}.db`), { change: step }, [
        'one',
        'change',
        'three',
        'four',
        'five',
      ]);
      assert.deepEqual([done.status, done.processed, done.succeeded, done.failed], ['completed', 5, 2, 3]);
      assert.deepEqual(
        items.map((item) => item.status),
        ['succeeded', 'succeeded', 'failed', 'failed', 'failed'],
      );
      for (const item of items.slice(2)) {
        assert.equal(item.error!.code, 'forbidden');
        assert.match(item.error!.message, reason);
        assert.equal(item.public_id, null);
      }
    });
  }
});

/**
 * Several processes on one database (docs/assignments.md, "Bulk jobs"): each job runs in the one
 * process holding its lease; the others take it when that process stops or its lease runs out.
 * The processes here are Lecterns with engines of their own on one database and a clock the test
 * moves. They share one connection: two SQLite connections in one Node process would wait for each
 * other's locks synchronously, blocking the event loop both need (separate processes do not).
 */
describe('job engine: several processes on one database', () => {
  let now = Date.parse('2031-01-01T00:00:00.000Z');
  const clock = { now: () => new Date(now) };
  const iso = () => new Date(now).toISOString();

  async function process(storage: Storage, handled: unknown[], instanceId = 'survivor'): Promise<Lectern> {
    const lectern = createLectern({
      storage,
      clock,
      config: { instanceId, jobs: { chunkSize: 2, leaseSeconds: 30, pollIntervalMs: 10 } },
    });
    lectern.jobs.register({
      name: 'echoes',
      maxItems: 50,
      scope: 'content:read',
      handle: async (_tx, _ctx, item) => {
        handled.push(item);
        return { publicId: `echo-${String(item)}`, created: true };
      },
    });
    return lectern;
  }

  /** Polls (10 ms apart) until the job is completed; the lease logic, not the time, is under test. */
  async function completed(lectern: Lectern, id: string) {
    for (let tries = 0; tries < 1000; tries++) {
      const job = await lectern.jobs.get(lectern.context(), 'echoes', id);
      if (job.status === 'completed') return job;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`job ${id} did not complete`);
  }

  it('runs every job once across two processes, whichever took the submit', async () => {
    const storage = await openSqliteStorage({ file: join(dir, 'shared-a.db') });
    const handledA: unknown[] = [];
    const handledB: unknown[] = [];
    const a = await process(storage, handledA, 'a');
    const b = await process(storage, handledB, 'b');
    await a.start();
    await b.start();
    const jobs = [];
    for (let n = 0; n < 6; n++) {
      const submitter = n % 2 === 0 ? a : b;
      const items = Array.from({ length: 10 }, (_, i) => n * 100 + i);
      jobs.push((await submitter.jobs.submit(submitter.context(), 'echoes', { echoes: items })).id);
    }
    for (const id of jobs) {
      const job = await completed(a, id);
      assert.deepEqual([job.processed, job.succeeded], [10, 10]);
    }
    const handled = [...handledA, ...handledB].sort((x, y) => Number(x) - Number(y));
    const expected = Array.from({ length: 6 }, (_, n) => Array.from({ length: 10 }, (_, i) => n * 100 + i)).flat();
    assert.deepEqual(handled, expected, 'each item handled exactly once, in one process or the other');
    assert.ok(handledA.length > 0 && handledB.length > 0, 'both processes took jobs');
    await a.jobs.stop();
    await b.close();
  });

  it('leaves a job to the process holding it, and takes it over once that lease has run out', async () => {
    const storage = await openSqliteStorage({ file: join(dir, 'shared-b.db') });
    const handled: unknown[] = [];
    const survivor = await process(storage, handled);
    // a process that took the job and died: stored, leased to it, never run here
    const job = await survivor.jobs.submit(survivor.context(), 'echoes', { echoes: [1, 2, 3] });
    const record = (await storage.jobs.findByPublicId(job.id))!;
    const until = new Date(now + 30_000).toISOString();
    assert.equal(await storage.transaction((tx) => tx.jobs.claim(record.id, 'dead-process', until, iso())), true);

    await survivor.start();
    await new Promise((resolve) => setTimeout(resolve, 50)); // several polls, all finding the job held
    assert.deepEqual(handled, []);
    assert.equal((await survivor.jobs.get(survivor.context(), 'echoes', job.id)).processed, 0);

    now += 30_000; // the dead process's lease runs out
    const done = await completed(survivor, job.id);
    assert.deepEqual([done.processed, done.succeeded], [3, 3]);
    assert.deepEqual(handled, [1, 2, 3]);
    await survivor.close();
  });

  it('claims: one holder at a time, renewals by the holder, anyone once the lease has run out', async () => {
    const storage = await openSqliteStorage({ file: join(dir, 'shared-c.db') });
    const lectern = await process(storage, []);
    const job = await lectern.jobs.submit(lectern.context(), 'echoes', { echoes: [1] });
    const id = (await storage.jobs.findByPublicId(job.id))!.id;
    const at = (seconds: number) => new Date(Date.parse('2031-06-01T00:00:00.000Z') + seconds * 1000).toISOString();
    const claim = (owner: string, from: number) => storage.transaction((tx) => tx.jobs.claim(id, owner, at(from + 30), at(from)));
    assert.equal(await claim('x', 0), true);
    assert.equal(await claim('y', 10), false, 'held by x until 30 s');
    assert.equal(await claim('x', 20), true, 'x renews: now held until 50 s');
    assert.equal(await claim('y', 40), false);
    assert.equal(await claim('y', 50), true, 'x let it run out');
    assert.equal(await claim('x', 55), false, 'x lost it: its next chunk cannot commit');
    assert.deepEqual(
      (await storage.jobs.claimable('x', at(55))).map((record) => record.id),
      [],
      'nor does x see it among the jobs it may take',
    );
    await storage.jobs.release('y');
    assert.equal(await claim('x', 56), true, 'released: anyone may take it');
    await lectern.close();
  });
});

describe('a kind with a batch write', () => {
  it('takes eight chunks of items at once; the items it leaves go one by one at most a chunk at a time, in order, each once', async () => {
    const lectern = createLectern({
      storage: await openSqliteStorage({ file: join(dir, 'many.db') }),
      config: { jobs: { chunkSize: 2, retryDelaysMs: [0, 0, 0] } },
    });
    const batches: number[][] = [];
    const handled: number[] = [];
    lectern.jobs.register({
      name: 'halves',
      maxItems: 40,
      scope: 'content:read',
      // the batch write takes the even items and leaves the odd ones to `handle`
      many: async (_tx, _ctx, items) => {
        batches.push(items as number[]);
        return (items as number[]).map((item) => (item % 2 === 0 ? { publicId: `many-${item}`, created: true } : undefined));
      },
      handle: async (_tx, _ctx, item) => {
        handled.push(item as number);
        return { publicId: `one-${String(item)}`, created: true };
      },
    });
    await lectern.start();
    const job = await lectern.jobs.submit(lectern.context(), 'halves', { halves: Array.from({ length: 40 }, (_, i) => i) });
    await lectern.jobs.idle();
    const done = await lectern.jobs.get(lectern.context(), 'halves', job.id);
    assert.deepEqual([done.status, done.processed, done.succeeded, done.failed], ['completed', 40, 40, 0]);
    // first chunk: 16 items, of which the batch writes 8 and `handle` takes 2 odd ones
    assert.deepEqual(
      batches[0],
      Array.from({ length: 16 }, (_, i) => i),
    );
    assert.deepEqual(
      handled,
      Array.from({ length: 20 }, (_, i) => 2 * i + 1),
    );
    for (const batch of batches.slice(1)) assert.ok(batch.length <= 16);
    const items = await lectern.jobs.items(lectern.context(), 'halves', job.id, { page_size: '100' });
    assert.deepEqual(
      items.data.map((item) => item.public_id),
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `many-${i}` : `one-${i}`)),
    );
    await lectern.close();
  });
});
