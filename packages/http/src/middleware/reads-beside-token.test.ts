import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Actor } from '@lectern/core';
import type { Reply } from '../reply.ts';
import type { Exchange } from './pipeline.ts';
import type { Hits } from './rate-limit-state.ts';
import { besideToken, RecentCallers, sameCaller } from './reads-beside-token.ts';

const admin: Actor = { kind: 'user', userId: 1, publicId: 'u1', role: 'admin', scopes: new Set(['users:read']), tokenId: 9 };
const window = (remaining: number) => ({ allowed: remaining >= 0, limit: 10, remaining: Math.max(0, remaining), resetSeconds: 30 });
const hits = (remaining: number): Hits => [window(remaining), window(remaining + 5)];
const exchange = (): Exchange => ({
  request: { method: 'GET', url: '/api/v2/users/', headers: {}, body: null, remoteAddress: '127.0.0.1' } as never,
  requestId: 'r',
  preflight: false,
  rateHeaders: {},
});

/** A count the test settles, and the order things happened in. */
function counting<Found>() {
  let settle!: (found: Found) => void;
  const promise = new Promise<Found>((resolve) => (settle = resolve));
  return { promise, settle };
}

describe('a read beside its token statement', () => {
  it('runs before the statement answers, and is sent when the statement finds the same caller', async () => {
    const events: string[] = [];
    const count = counting<{ actor?: Actor; hits?: Hits }>();
    const on = exchange();
    const answered = besideToken(
      on,
      async () => {
        events.push(`read as ${(on.auth?.actor as { role: string }).role}`);
        return { status: 200, body: 'page' };
      },
      { actor: admin, hits: hits(7) },
      count.promise.then((found) => (events.push('counted'), found)),
      () => events.push('settled again'),
    );
    await new Promise((resolve) => setImmediate(resolve));
    count.settle({ actor: { ...admin, scopes: new Set(['users:read']) }, hits: hits(3) });
    assert.deepEqual(await answered, { status: 200, body: 'page' });
    assert.deepEqual(events, ['read as admin', 'counted']);
    assert.equal(on.rateHeaders['X-RateLimit-Remaining'], '3', "the headers say the statement's counts");
  });

  it('runs again as the statement says when the caller changed, was refused, or is past a limit', async () => {
    const cases: Array<[string, { actor?: Actor; hits?: Hits; error?: Error }]> = [
      ['role lowered', { actor: { ...admin, role: 'user' }, hits: hits(3) }],
      ['token revoked', { error: new Error('invalid_token') }],
      ['past the limit', { actor: admin, hits: hits(-1) }],
    ];
    for (const [label, found] of cases) {
      const reads: string[] = [];
      const on = exchange();
      let finished = false;
      const reply: Reply = await besideToken(
        on,
        async (): Promise<Reply> => {
          reads.push(on.auth?.actor ? `as ${(on.auth.actor as { role: string }).role}` : 'refused');
          if (reads.length > 1) return { status: 401 };
          // a streamed body holds what its generator releases when it ends
          async function* chunks() {
            try {
              yield 'header';
              yield 'rows';
            } finally {
              finished = true;
            }
          }
          return { status: 200, stream: { type: 'text/csv', chunks: chunks() } };
        },
        { actor: admin, hits: hits(7) },
        Promise.resolve(found),
        (settled) => {
          on.auth = settled.actor ? { actor: settled.actor } : ({ error: settled.error } as never);
        },
      );
      assert.equal(reply.status, 401, label);
      assert.equal(reads.length, 2, `${label}: the read ran again`);
      assert.equal(reads[1], found.actor ? `as ${(found.actor as { role: string }).role}` : 'refused', label);
      assert.ok(finished, `${label}: the first answer's stream was ended`);
    }
  });

  it('fails with the database when the token statement fails while the read runs, and nothing goes unhandled', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const failing = Promise.reject(new Error('connection lost'));
      const reply = besideToken(
        exchange(),
        async () => {
          // the read outlasts the statement's failure by a few turns of the event loop
          for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
          return { status: 200 };
        },
        { actor: admin, hits: hits(7) },
        failing,
        () => undefined,
      );
      await assert.rejects(reply, /connection lost/);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});

describe('recent callers', () => {
  it('are guessed for reads only, and forgotten once refused', () => {
    const recent = new RecentCallers();
    recent.learn('Bearer a', { actor: admin, hits: hits(5) });
    assert.equal(recent.guess('GET', 'Bearer a')?.actor, admin);
    assert.equal(recent.guess('HEAD', 'Bearer a')?.actor, admin);
    assert.equal(recent.guess('POST', 'Bearer a'), undefined, 'a write waits for its token');
    assert.equal(recent.guess('GET', 'Bearer b'), undefined);
    recent.learn('Bearer a', { actor: admin, hits: hits(-1) });
    assert.equal(recent.guess('GET', 'Bearer a'), undefined, 'a caller past its limit is not guessed');
    recent.learn('Bearer a', { actor: admin, hits: hits(0) });
    assert.equal(recent.guess('GET', 'Bearer a'), undefined, 'nor one that used its last request');
    recent.learn('Bearer a', { actor: admin, hits: hits(5) });
    recent.learn('Bearer a', {});
    assert.equal(recent.guess('GET', 'Bearer a'), undefined, 'a refused token is not guessed');
  });

  it('are the same caller only with the same user, token, role and scopes', () => {
    assert.ok(sameCaller(admin, { ...admin, scopes: new Set(['users:read']) }));
    assert.ok(!sameCaller(admin, { ...admin, scopes: new Set(['users:read', 'users:write']) }));
    assert.ok(!sameCaller(admin, { ...admin, role: 'organizer' }));
    assert.ok(!sameCaller(admin, { ...admin, tokenId: 10 }));
    assert.ok(!sameCaller(admin, { ...admin, userId: 2 }));
    assert.ok(!sameCaller(admin, { kind: 'system' }));
  });
});
