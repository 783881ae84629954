/**
 * Requests keep a share of the PostgreSQL pool: however many transactions queue for the write lock
 * (an import's chunks, jobs, writers), a read outside a transaction still finds a connection. The
 * test asserts an order: the read answers while every transaction is still held open.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { openPostgresStorage, transactionSlots } from './open-postgres-storage.ts';

describe('the PostgreSQL pool', () => {
  it('keeps a third of its connections, at least one, from transactions', () => {
    assert.equal(transactionSlots(1), 1);
    assert.equal(transactionSlots(2), 1);
    assert.equal(transactionSlots(4), 2);
    assert.equal(transactionSlots(10), 6);
  });

  it(
    'answers a read outside transactions while more transactions than connections wait for the write lock',
    { skip: !postgresServerUrl && 'no PostgreSQL server' },
    async () => {
      const storage = await openPostgresStorage({ url: await freshPostgresDatabase(), poolSize: 4 });
      try {
        const order: string[] = [];
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        // the first holds the write lock until released; the others queue behind it
        const transactions = Array.from({ length: 8 }, () =>
          storage.transaction(async (tx) => {
            await held;
            return tx.users.count();
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push(`read ${await storage.users.count()}`);
        order.push('released');
        release();
        assert.deepEqual(await Promise.all(transactions), Array(8).fill(0));
        assert.deepEqual(order, ['read 0', 'released']);
      } finally {
        await storage.close();
      }
    },
  );
});
