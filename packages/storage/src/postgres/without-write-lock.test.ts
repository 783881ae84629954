/**
 * `transaction(work, { withoutWriteLock: true })` on PostgreSQL, with two servers (two storages,
 * two pools) on one database: such a transaction does not wait for another server's writer, a
 * plain one still does, and the work it is meant for (a mail worker recording the outcomes of the
 * notifications it leased) stays exact without the lock: a server's outcomes land only on rows it
 * still holds, a lease taken over by the other server is decided by that one alone. A server
 * sees another's transaction waiting for the lock (`writersWaiting`, which ends an import chunk
 * early). The tests assert orders and final rows, never times.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLectern, randomIds } from '@lectern/core';
import type { Stores } from '@lectern/core';
import type { NotificationOutcome } from '@lectern/core/ports';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import { openPostgresStorage } from './open-postgres-storage.ts';

const stamp = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T00:10:00.000Z';
const sent = (by: string): NotificationOutcome => ({ status: 'sent', attempts: 1, lastError: by, sentAt: stamp, nextAttemptAt: null });

async function twoServers(): Promise<[KyselyStorage, KyselyStorage]> {
  const url = await freshPostgresDatabase();
  return [await openPostgresStorage({ url }), await openPostgresStorage({ url })];
}

async function seedNotifications(storage: KyselyStorage, count: number): Promise<void> {
  const user = await storage.db
    .insertInto('users')
    .values({
      public_id: randomIds.uuid(),
      email: 'learner@example.com',
      email_lower: 'learner@example.com',
      name: 'Learner',
      role: 'user',
      is_active: 1,
      date_joined: stamp,
      modified: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await storage.notifications.insertMany(
    Array.from({ length: count }, () => ({
      kind: 'enrolled' as const,
      userId: user.id,
      subject: 'Enrolled',
      payload: '{}',
      status: 'pending' as const,
      nextAttemptAt: stamp,
      unsubscribeKey: randomIds.uuid(),
      createdAt: stamp,
    })),
  );
}

const skip = !postgresServerUrl && 'no PostgreSQL server';

describe('a transaction without the write lock (PostgreSQL, two servers)', () => {
  it('runs while the other server holds the write lock; a plain transaction waits for it', { skip }, async () => {
    const [a, b] = await twoServers();
    try {
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const lockTaken = new Promise<void>((resolve) => (holding = resolve));
      let writing!: Stores;
      const writer = a.transaction(async (tx) => {
        writing = tx;
        holding();
        await held;
        order.push('a done');
        return tx.users.count();
      });
      await lockTaken;
      assert.equal(await a.writersWaiting(writing), false, 'no one waits for the write lock yet');
      const plain = b.transaction(async () => order.push('b plain'));
      await b.transaction(async () => order.push('b without lock'), { withoutWriteLock: true });
      // what an import chunk of a's asks before its next batch: b's plain transaction now waits
      // for the lock (its request reaches the server soon, not at once)
      let seen = false;
      for (let tries = 0; !seen && tries < 250; tries++) {
        seen = await a.writersWaiting(writing);
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(seen, "the other server's transaction waits for the write lock");
      release();
      await Promise.all([writer, plain]);
      assert.deepEqual(order, ['b without lock', 'a done', 'b plain']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("records each server's outcomes only on the rows it still leases, beside a writer holding the lock", { skip }, async () => {
    const [a, b] = await twoServers();
    try {
      await seedNotifications(a, 6);
      // a leases three until a moment already past; b then takes those over and leases the rest
      const fromA = await a.notifications.claim('server-a', stamp, stamp, 3);
      const fromB = await b.notifications.claim('server-b', later, stamp, 6);
      assert.equal(fromA.length, 3);
      assert.equal(fromB.length, 6);

      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writer = a.transaction(() => held);
      // both record at once, neither waiting for the writer: a's outcomes come too late
      await Promise.all([
        a.transaction(
          (tx) =>
            tx.notifications.finish(
              'server-a',
              fromA.map(({ id }) => ({ id, outcome: sent('server-a') })),
            ),
          { withoutWriteLock: true },
        ),
        b.transaction(
          (tx) =>
            tx.notifications.finish(
              'server-b',
              fromB.map(({ id }) => ({ id, outcome: sent('server-b') })),
            ),
          { withoutWriteLock: true },
        ),
      ]);
      release();
      await writer;

      const rows = await a.db.selectFrom('notifications').select(['status', 'attempts', 'last_error', 'lease_owner']).execute();
      assert.equal(rows.length, 6);
      for (const row of rows) assert.deepEqual(row, { status: 'sent', attempts: 1, last_error: 'server-b', lease_owner: null });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets a server start beside a writer: finding the admin made, it does not wait for the write lock', { skip }, async () => {
    const [a, b] = await twoServers();
    try {
      const first = await createLectern({ storage: a }).bootstrapAdmin({ email: 'admin@example.com', name: 'Admin' });
      assert.ok(first, 'the empty database got its admin');
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const lockTaken = new Promise<void>((resolve) => (holding = resolve));
      const writer = a.transaction(async () => {
        holding();
        await held;
      });
      await lockTaken;
      // before, the restarted server's bootstrap waited here for a's transaction (and failed on the
      // lock timeout when a's job chunks kept it busy)
      const bootstrapped = await createLectern({ storage: b })
        .bootstrapAdmin({ email: 'other@example.com', name: 'Other' })
        .finally(release);
      assert.equal(bootstrapped, null);
      await writer;
    } finally {
      await a.close();
      await b.close();
    }
  });
});
