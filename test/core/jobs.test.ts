/** The job engine as another area uses it: registering a kind, per-item failures, faults, resume. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern, fieldError, type Lectern } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';

const dir = mkdtempSync(join(tmpdir(), 'lectern-jobs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function open(file: string, seen: unknown[]): Promise<Lectern> {
  const lectern = createLectern({ storage: await openSqliteStorage({ file }), config: { jobs: { chunkSize: 3 } } });
  lectern.jobs.register({
    name: 'echoes',
    maxItems: 10,
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
      { index: 1, status: 'failed', public_id: null, created: null, error: { code: 'validation_error', message: 'item: Must be a number.' } },
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
});
