/**
 * The contract every storage adapter must honour, run against each dialect in DIALECTS. A new
 * adapter (PostgreSQL) is one more entry in the list.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern, EventRecorder, randomIds, systemClock, type Storage } from '@lectern/core';
import { openSqliteStorage } from './sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from './postgres/open-postgres-storage.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../test/helpers/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-storage-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const DIALECTS: Array<{ name: string; open: () => Promise<Storage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, `contract-${files++}.db`) }) },
  // scripts/run-tests.mjs starts a PostgreSQL server for the run (see test/helpers/postgres.ts)
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

const userRow = (email: string) => ({
  publicId: randomIds.uuid(),
  email,
  name: email.split('@')[0]!,
  role: 'user' as const,
  employeeId: null,
  managerId: null,
  isActive: true,
  dateJoined: new Date().toISOString(),
});

for (const dialect of DIALECTS) {
  describe(`storage contract: ${dialect.name}`, () => {
    const events = new EventRecorder(systemClock, randomIds);

    it('commits a transaction and its outbox events together', async () => {
      const storage = await dialect.open();
      await storage.transaction(async (tx) => {
        await tx.users.insert(userRow('a@example.com'));
        await events.record(tx, { type: 'test.happened', object: { n: 1 } }, { type: 'test.happened', object: { n: 2 } });
      });
      assert.equal(await storage.users.count(), 1);
      const outbox = await storage.outbox.readAfter(0, 10);
      assert.deepEqual(
        outbox.map((entry) => entry.event.data.object),
        [{ n: 1 }, { n: 2 }],
      );
      assert.ok(outbox[0]!.sequence < outbox[1]!.sequence);
      assert.match(outbox[0]!.event.id, /^msg_[0-9A-Z]{26}$/);
      assert.equal(outbox[0]!.event.api_version, '2.0');
      assert.deepEqual(await storage.outbox.readAfter(outbox[1]!.sequence, 10), []);
      assert.equal(await storage.outbox.hasEventsAfter(0), true);
      assert.equal(await storage.outbox.hasEventsAfter(outbox[0]!.sequence), true);
      assert.equal(await storage.outbox.hasEventsAfter(outbox[1]!.sequence), false);
      await storage.close();
    });

    it('rolls back the change and its events when the work throws', async () => {
      const storage = await dialect.open();
      await assert.rejects(
        storage.transaction(async (tx) => {
          await tx.users.insert(userRow('b@example.com'));
          await events.record(tx, { type: 'test.lost', object: {} });
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await storage.users.count(), 0);
      assert.deepEqual(await storage.outbox.readAfter(0, 10), []);
      assert.equal(await storage.outbox.hasEventsAfter(0), false);
      await storage.close();
    });

    it('serialises concurrent transactions without losing writes', async () => {
      const storage = await dialect.open();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          storage.transaction(async (tx) => {
            const before = await tx.users.count();
            await tx.users.insert(userRow(`c${i}@example.com`));
            assert.equal(await tx.users.count(), before + 1);
          }),
        ),
      );
      assert.equal(await storage.users.count(), 20);
      await storage.close();
    });

    it('finds users case-insensitively by email and walks the management chain', async () => {
      const lectern = createLectern({ storage: await dialect.open() });
      const ctx = lectern.context();
      const top = await lectern.users.create(ctx, { email: 'Top@Example.com', name: 'Top' });
      const mid = await lectern.users.create(ctx, { email: 'mid@example.com', name: 'Mid', manager: top.public_id });
      const low = await lectern.users.create(ctx, { email: 'low@example.com', name: 'Low', manager: mid.public_id });
      assert.equal((await lectern.storage.users.findByEmail('top@EXAMPLE.com'))?.view.public_id, top.public_id);
      const lowRecord = (await lectern.storage.users.findByPublicId(low.public_id))!;
      const chain = await lectern.storage.users.managerChain(lowRecord.id);
      assert.equal(chain.length, 2);
      assert.equal((await lectern.storage.users.findById(chain[1]!))?.view.public_id, top.public_id);
      await lectern.close();
    });

    it('resolves public ids to internal ids, leaving out unknown and deleted rows', async () => {
      const lectern = createLectern({ storage: await dialect.open() });
      const ctx = lectern.context();
      const { storage } = lectern;
      const user = await lectern.users.create(ctx, { email: 'named@example.com', name: 'Named' });
      const [kept, gone] = [await lectern.groups.create(ctx, { name: 'Kept' }), await lectern.groups.create(ctx, { name: 'Gone' })];
      const [article, deleted] = [
        await lectern.content.create(ctx, 'article', { name: 'Kept' }),
        await lectern.content.create(ctx, 'article', { name: 'Gone' }),
      ];
      await lectern.groups.delete(ctx, gone.public_id);
      await lectern.content.delete(ctx, deleted.public_id);
      const unknown = randomIds.uuid();

      const users = await storage.users.idsByPublicIds([user.public_id, unknown]);
      assert.deepEqual([...users.keys()], [user.public_id]);
      assert.equal(users.get(user.public_id), (await storage.users.findByPublicId(user.public_id))!.id);
      const groups = await storage.groups.idsByPublicIds([kept.public_id, gone.public_id, unknown]);
      assert.deepEqual([...groups.keys()], [kept.public_id]);
      assert.equal(groups.get(kept.public_id), (await storage.groups.findByPublicId(kept.public_id))!.id);
      const content = await storage.content.idsByPublicIds([article.public_id, deleted.public_id, unknown]);
      assert.deepEqual([...content.keys()], [article.public_id]);
      assert.equal(typeof content.get(article.public_id), 'number');
      assert.equal((await storage.content.idsByPublicIds([])).size, 0);
      await lectern.close();
    });

    it('pages deterministically when sort keys tie', async () => {
      const lectern = createLectern({ storage: await dialect.open() });
      const ctx = lectern.context();
      for (let i = 0; i < 7; i++) await lectern.users.create(ctx, { email: `tie${i}@example.com`, name: 'Same Name' });
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const result = await lectern.users.list(ctx, { ordering: 'name', page_size: '2', page: String(page) });
        assert.equal(result.meta.total_count, 7);
        seen.push(...result.data.map((user) => user.public_id));
      }
      assert.equal(seen.length, 7);
      assert.equal(new Set(seen).size, 7, 'no row on two pages');
      await lectern.close();
    });

    // What several processes sharing the database rely on (docs/scaling.md): a delivery is claimed
    // by one process, and a process started again takes back only what it held itself.
    it('claims each due webhook delivery for one process, and releases only its own', async () => {
      const storage = await dialect.open();
      const at = (seconds: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + seconds * 1000).toISOString();
      const endpoint = await storage.webhookEndpoints.insert({
        publicId: 'ep_01J0000000000000000000000A',
        url: 'https://hooks.example.com/a',
        events: ['user.created'],
        description: '',
        isActive: true,
        secret: 'whsec_test',
        created: at(0),
      });
      await storage.transaction((tx) => events.record(tx, ...[1, 2, 3].map((n) => ({ type: 'test.happened', object: { n } }))));
      for (const { event } of await storage.outbox.readAfter(0, 10)) {
        await storage.webhookDeliveries.insert({ endpointId: endpoint.id, eventId: event.id, eventType: 'ping', dueAt: at(0) });
      }
      const due = await storage.webhookDeliveries.findDue(endpoint.id, at(1), 10);
      const ids = due.map((delivery) => delivery.id);
      assert.equal(ids.length, 3);
      const claim = (owner: string, some: number[]) => storage.transaction((tx) => tx.webhookDeliveries.claim(some, owner, at(100), at(1)));
      assert.deepEqual(await claim('a', ids.slice(0, 2)), ids.slice(0, 2));
      // b read all three as due before a's claim committed: it gets only the one a did not take
      assert.deepEqual(await claim('b', ids), ids.slice(2));
      assert.deepEqual(await storage.webhookDeliveries.findDue(endpoint.id, at(1), 10), []);
      assert.equal(await storage.webhookDeliveries.releaseLeases('a', at(2)), 2, "a's restart takes back its two");
      assert.deepEqual(
        (await storage.webhookDeliveries.findDue(endpoint.id, at(2), 10)).map((delivery) => delivery.id),
        ids.slice(0, 2),
        "b's delivery stays with b",
      );
      await storage.close();
    });

    it('leases a bulk job to one process at a time', async () => {
      const storage = await dialect.open();
      const job = await storage.transaction((tx) =>
        tx.jobs.insert(
          { publicId: randomIds.uuid(), kind: 'users', actor: { kind: 'system' }, requestId: 'req_1', createdAt: new Date().toISOString() },
          [1],
        ),
      );
      const at = (seconds: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + seconds * 1000).toISOString();
      const claim = (owner: string, now: number) => storage.transaction((tx) => tx.jobs.claim(job.id, owner, at(now + 30), at(now)));
      assert.equal(await claim('a', 0), true);
      assert.equal(await claim('b', 1), false);
      assert.deepEqual(await storage.jobs.claimable('b', at(1)), []);
      assert.deepEqual(
        (await storage.jobs.claimable('a', at(1))).map((record) => record.id),
        [job.id],
      );
      assert.equal(await claim('b', 30), true, "a's lease ran out");
      await storage.close();
    });

    it("announces outbox events and jobs to the other servers as they commit, and never a rolled-back one's", async () => {
      if (dialect.name === 'sqlite') {
        const storage = await dialect.open();
        assert.equal(storage.wakeUps?.(), null, 'an embedded file polls');
        await storage.close();
        return;
      }
      const url = await freshPostgresDatabase();
      const writer = await openPostgresStorage({ url });
      const listener = await openPostgresStorage({ url });
      const heard: string[] = [];
      const stops = (['outbox', 'jobs'] as const).map((topic) => listener.wakeUps()!.listen(topic, () => heard.push(topic)));
      const until = async (count: number) => {
        for (let waited = 0; heard.length < count && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      // the listening connection, once open, wakes every listener once: work announced before it listened
      await until(2);
      heard.length = 0;
      await assert.rejects(
        writer.transaction(async (tx) => {
          await events.record(tx, { type: 'test.happened', object: { n: 0 } });
          throw new Error('abandon');
        }),
        /abandon/,
      );
      let heardDuring: string[] = [];
      await writer.transaction(async (tx) => {
        await events.record(tx, { type: 'test.happened', object: { n: 1 } });
        await new Promise((resolve) => setTimeout(resolve, 50));
        heardDuring = [...heard];
      });
      await until(1);
      assert.deepEqual(heardDuring, [], 'nothing is announced before the commit');
      assert.deepEqual(heard, ['outbox'], 'the committed events, once; the rolled-back ones never');
      heard.length = 0;
      await writer.transaction((tx) =>
        tx.jobs.insert(
          { publicId: randomIds.uuid(), kind: 'users', actor: { kind: 'system' }, requestId: 'req_1', createdAt: new Date().toISOString() },
          [1],
        ),
      );
      await until(1);
      assert.deepEqual(heard, ['jobs']);
      for (const stop of stops) stop();
      await writer.close();
      await listener.close();
    });

    it('counts rate-limit hits across the servers that share the database, and only then', async () => {
      if (dialect.name === 'sqlite') {
        const storage = await dialect.open();
        assert.equal(storage.sharedRateCounters(), null, 'an embedded file is one server: its counters stay in memory');
        await storage.close();
        return;
      }
      // two storages on one database stand for two servers
      const url = await freshPostgresDatabase();
      const storage = await openPostgresStorage({ url });
      const other = await openPostgresStorage({ url });
      const counters = storage.sharedRateCounters();
      const both = [counters!, other.sharedRateCounters()!];
      const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => both[i % 2]!.hit('token:1', 60_000)));
      assert.deepEqual(
        [...counts].sort((a, b) => a - b),
        Array.from({ length: 60 }, (_, i) => i + 1),
        'every hit counted once, in some order, whichever server took it',
      );
      assert.equal(await counters!.hit('token:2', 60_000), 1, 'keys are independent');
      assert.equal(await counters!.hit('token:1', 120_000), 1, 'a new window starts at one');
      // read without a hit, from either server: what a refusal's message is chosen by
      assert.equal(await other.sharedRateCounters()!.count('token:1', 60_000), 60);
      assert.equal(await counters!.count('token:1', 60_000), 60, 'reading counts nothing');
      assert.equal(await counters!.count('token:3', 60_000), 0, 'a window nobody hit reads zero');
      await other.close();
      await storage.close();
    });

    it('finds a token and counts its windows in one statement, only while it is in force', async () => {
      if (dialect.name === 'sqlite') return; // no shared counters: see the case above
      const url = await freshPostgresDatabase();
      const storage = await openPostgresStorage({ url });
      const other = await openPostgresStorage({ url });
      const user = await storage.users.insert(userRow('counted@example.com'));
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const token = (hash: string, expiresAt: string | null = null) =>
        storage.tokens.insert({
          publicId: randomIds.uuid(),
          userId: user.id,
          name: hash,
          tokenHash: hash,
          tokenPrefix: 'lct_x',
          scopes: ['users:read'],
          expiresAt,
          created: new Date().toISOString(),
        });
      const first = await token('hash-a');
      const second = await token('hash-b');
      const expiring = await token('hash-c', later);
      const windows = { tokenPrefix: 'token:', userPrefix: 'user:', windowStart: 60_000, tokenLimit: 12 };
      const now = new Date().toISOString();
      const both = [storage.sharedRateCounters()!, other.sharedRateCounters()!];
      const found = await Promise.all(Array.from({ length: 20 }, (_, i) => both[i % 2]!.hitByToken('hash-a', now, windows)));
      for (const answer of found) {
        assert.equal(answer?.credentials.tokenId, first.id);
        assert.equal(answer?.credentials.user.id, user.id);
        assert.deepEqual(answer?.credentials.scopes, ['users:read']);
      }
      const hits = found.map((answer) => answer!.hits!);
      assert.deepEqual(
        hits.map(([own]) => own).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 1),
        'every request counted once in the token window, whichever server took it',
      );
      for (const [own, users] of hits) assert.equal(users === null, own > 12, `the user's window counted with the token's ${own}`);
      assert.equal(await both[1]!.count(`user:${user.id}`, 60_000), 12, 'the user counted only what the token allowed');
      assert.deepEqual((await both[0]!.hitByToken('hash-b', now, windows))?.hits, [1, 13], "another token adds to its user's window");
      assert.equal(await both[0]!.hitByToken('hash-unknown', now, windows), undefined, 'an unknown token is not found');

      // not in force: answered, so core can refuse it, but nothing is counted
      const expired = await both[1]!.hitByToken('hash-c', later, windows);
      assert.equal(expired?.credentials.tokenId, expiring.id);
      assert.equal(expired?.hits, null, 'an expired token counts nothing');
      assert.equal(await both[0]!.count(`token:${expiring.id}`, 60_000), 0);
      await storage.users.update(user.id, { isActive: false, modified: now });
      assert.equal((await both[0]!.hitByToken('hash-b', now, windows))?.hits, null, "a deactivated user's token counts nothing");
      await storage.tokens.revoke(second.id, now);
      assert.equal(await both[1]!.hitByToken('hash-b', now, windows), undefined, 'a revoked token is not found');
      assert.equal(await both[0]!.count(`user:${user.id}`, 60_000), 13, 'no refused token added to the windows');
      assert.equal(await both[0]!.count(`token:${second.id}`, 60_000), 1);
      await other.close();
      await storage.close();
    });
  });
}

// SQLite has one writer at a time; a writer waits for another process's lock (busy timeout).
describe('storage: sqlite', () => {
  it('waits for another process holding the write lock instead of failing', async () => {
    const file = join(dir, 'shared-lock.db');
    const storage = await openSqliteStorage({ file });
    // A second process (as the CLI is while the server runs) takes the write lock for a while.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
         db.exec('begin immediate');
         db.prepare("insert into groups (public_id, name, created, modified) values ('held', 'held', 'x', 'x')").run();
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('commit'); process.exit(0); }, 300);`,
      ],
      { cwd: new URL('../../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(holder.stdout!, 'data');
    await storage.transaction(async (tx) => {
      await tx.users.insert(userRow('waited@example.com'));
    });
    assert.equal(await storage.users.count(), 1);
    assert.ok(await storage.groups.findByPublicId('held'), 'the other process committed too');
    await once(holder, 'exit');
    await storage.close();
  });
});
