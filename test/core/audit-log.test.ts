/**
 * The audit log in process: an entry never outlives a change that rolled back (the transaction is
 * made to fail after the service recorded its entry), the retention pass, and the switch the
 * benchmark uses to measure what recording costs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLectern, LecternError, type Clock, type Lectern, type Storage } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';

/** A storage whose transactions, while `failing` is set, throw after their work has run: a commit that fails. */
async function failableStorage(): Promise<{ storage: Storage; failing: { on: boolean } }> {
  const real = await openSqliteStorage({ file: ':memory:' });
  const failing = { on: false };
  const storage = new Proxy(real, {
    get(target, key) {
      if (key === 'transaction') {
        return <T>(work: Parameters<Storage['transaction']>[0]) =>
          target.transaction(async (tx) => {
            const result = (await work(tx)) as T;
            if (failing.on) throw new Error('the commit failed');
            return result;
          });
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Storage;
  return { storage, failing };
}

const actions = async (lectern: Lectern) => (await lectern.auditLog.list(lectern.context(), {})).data.map((entry) => entry.action);

describe('audit log (in process)', () => {
  it('writes no entry for a change whose transaction failed after the entry was recorded', async () => {
    const { storage, failing } = await failableStorage();
    const lectern = createLectern({ storage, config: { webhooks: { allowPrivateTargets: true } } });
    const app = lectern.context();
    const user = await lectern.users.create(app, { email: 'ada@example.com', name: 'Ada', role: 'admin' });
    const hook = await lectern.webhooks.create(app, { url: 'http://127.0.0.1:9/hook', events: ['assignment.created'] });
    const token = await lectern.tokens.issue({
      userId: (await lectern.users.findByEmail('ada@example.com'))!.id,
      role: 'admin',
      name: 't',
    });
    assert.deepEqual(await actions(lectern), ['api_token.created', 'webhook_endpoint.created', 'user.created']);

    failing.on = true;
    await assert.rejects(lectern.users.update(app, user.public_id, { name: 'Ada Lovelace' }), /the commit failed/);
    await assert.rejects(lectern.webhooks.rotateSecret(app, hook.id), /the commit failed/);
    await assert.rejects(lectern.tokens.revoke(app, token.public_id), /the commit failed/);
    await assert.rejects(lectern.groups.create(app, { name: 'Lost' }), /the commit failed/);
    failing.on = false;

    assert.deepEqual(await actions(lectern), ['api_token.created', 'webhook_endpoint.created', 'user.created']);
    assert.equal((await lectern.users.get(app, user.public_id)).name, 'Ada');
    await lectern.users.update(app, user.public_id, { name: 'Ada Lovelace' });
    const [updated] = (await lectern.auditLog.list(app, { action: 'user.updated' })).data;
    assert.deepEqual(updated!.changes, { name: { from: 'Ada', to: 'Ada Lovelace' } });
    await lectern.close();
  });

  it("writes a bulk chunk's entries together, leaving out those of the items that failed", async () => {
    const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
    // an item records its entry first and fails afterwards when told to: the entry must go with it
    lectern.jobs.register({
      name: 'probes',
      maxItems: 10,
      scope: 'users:write',
      handle: async (tx, ctx, item) => {
        const { id, fail } = item as { id: string; fail?: boolean };
        await lectern.audit.record(tx, ctx, 'user.created', id);
        if (fail) throw new LecternError('validation_error', 'This probe fails after recording.');
        return { publicId: id, created: true };
      },
    });
    await lectern.start();
    const ctx = lectern.context();
    await lectern.jobs.submit(ctx, 'probes', { probes: [{ id: 'a' }, { id: 'b', fail: true }, { id: 'c' }] });
    await lectern.jobs.idle();
    const entries = (await lectern.auditLog.list(ctx, {})).data;
    assert.deepEqual(
      entries.map((entry) => entry.resource.public_id),
      ['c', 'a'],
    );
    assert.ok(entries.every((entry) => entry.request_id === ctx.requestId));
    await lectern.close();
  });

  it('deletes entries older than the retention period in the maintenance pass, and keeps the rest', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const clock: Clock = { now: () => now };
    const lectern = createLectern({
      storage: await openSqliteStorage({ file: ':memory:' }),
      clock,
      config: { audit: { retentionDays: 30 } },
    });
    const app = lectern.context();
    await lectern.users.create(app, { email: 'old@example.com', name: 'Old' });
    now = new Date('2026-01-31T12:00:00.000Z');
    await lectern.users.create(app, { email: 'recent@example.com', name: 'Recent' });
    await lectern.maintain();
    assert.equal((await lectern.auditLog.list(app, {})).data.length, 1);
    now = new Date('2026-02-01T00:00:01.000Z');
    // half a day on the pass runs again (it prunes at most hourly); the recent entry is in its period
    await lectern.maintain();
    const left = (await lectern.auditLog.list(app, {})).data;
    assert.equal(left.length, 1);
    assert.equal(left[0]!.occurred_at, '2026-01-31T12:00:00.000Z');
    await lectern.close();
  });

  it('records nothing when turned off (only the benchmark does that)', async () => {
    const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }), config: { audit: { enabled: false } } });
    await lectern.users.create(lectern.context(), { email: 'quiet@example.com', name: 'Quiet' });
    assert.deepEqual(await actions(lectern), []);
    await lectern.close();
  });
});
