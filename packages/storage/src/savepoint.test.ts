import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LecternError, type Stores } from '@lectern/core';
import { runSyncBatch } from '@lectern/core/ports';
import type { KyselyStorage } from './kysely-storage.ts';
import { openSqliteStorage } from './sqlite/open-sqlite-storage.ts';

const ctx = { actor: { kind: 'system' } as const, requestId: 'req_test' };

const newChannel = (stores: Stores, name: string) =>
  stores.channels.insert({ publicId: crypto.randomUUID(), name, created: new Date().toISOString() });

const channelNames = async (storage: KyselyStorage) =>
  (await storage.db.selectFrom('channels').select('name').orderBy('id').execute()).map((row) => row.name);

describe('savepoints and synchronous batches', () => {
  let storage: KyselyStorage;
  before(async () => {
    storage = await openSqliteStorage({ file: ':memory:' });
  });
  after(async () => {
    await storage.close();
  });

  it('undoes only the failed savepoint, nested ones included, and keeps the transaction', async () => {
    await storage.transaction(async (tx) => {
      await newChannel(tx, 'outer');
      await tx.savepoint(async (sp) => {
        await newChannel(sp, 'kept');
        await assert.rejects(
          sp.savepoint(async (inner) => {
            await newChannel(inner, 'inner undone');
            throw new Error('boom');
          }),
        );
      });
      await assert.rejects(
        tx.savepoint(async (sp) => {
          await newChannel(sp, 'undone');
          throw new Error('boom');
        }),
      );
    });
    assert.deepEqual(await channelNames(storage), ['outer', 'kept']);
  });

  it('reports each item by index: domain errors fail the item, the others commit', async () => {
    const result = await runSyncBatch(storage, ctx, [{ public_id: 'a' }, { public_id: 'b' }, { public_id: 'c' }], async (tx, item) => {
      await newChannel(tx, `batch ${item.public_id}`);
      if (item.public_id === 'b') throw new LecternError('not_found', 'No such thing.');
    });
    assert.deepEqual(result, {
      data: {
        succeeded: [
          { public_id: 'a', index: 0 },
          { public_id: 'c', index: 2 },
        ],
        failed: [{ index: 1, error: { code: 'not_found', message: 'No such thing.', request_id: 'req_test' } }],
      },
      meta: { total: 3, succeeded_count: 2, failed_count: 1 },
    });
    const names = await channelNames(storage);
    assert.ok(names.includes('batch a') && names.includes('batch c') && !names.includes('batch b'));
  });

  it('rolls the whole batch back on an unexpected error', async () => {
    await assert.rejects(
      runSyncBatch(storage, ctx, [{ public_id: 'x' }, { public_id: 'y' }], async (tx, item) => {
        await newChannel(tx, `bug ${item.public_id}`);
        if (item.public_id === 'y') throw new TypeError('a bug');
      }),
      TypeError,
    );
    assert.ok(!(await channelNames(storage)).some((name) => name.startsWith('bug')));
  });
});
