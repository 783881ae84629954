import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLecternError, type Actor } from '@lectern/core';
import type { OperationSpec } from './operation-spec.ts';
import { ok } from './reply.ts';
import { RouteTable, type RouteContext } from './router.ts';

const context = () => ({ ctx: {}, params: {}, query: new URLSearchParams() }) as unknown as RouteContext;
const open: OperationSpec = { summary: 'open', tag: 'test', scope: null, response: { status: 200 } };

describe('route table', () => {
  it('tries literal segments before parameters, whatever the order routes were added in', async () => {
    const routes = new RouteTable()
      .get('/x/:id', open, (rc) => ok({ by: 'id', id: rc.params.id }))
      .get('/x/:id/tags', open, () => ok({ by: 'tags' }))
      .post('/x/bulk', open, () => ok({ by: 'bulk' }))
      .get('/x/bulk/:id', open, (rc) => ok({ by: 'bulk job', id: rc.params.id }))
      .finalize();
    assert.deepEqual((await routes.dispatch('POST', 'http://h/x/bulk', context()))?.body, { by: 'bulk' });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/x/bulk/7', context()))?.body, { by: 'bulk job', id: '7' });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/x/7', context()))?.body, { by: 'id', id: '7' });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/x/bulk/tags', context()))?.body, { by: 'bulk job', id: 'tags' });
  });

  it("answers another method on a literal path with the literal path's 405, not the parametric route", async () => {
    const routes = new RouteTable()
      .get('/x/:id', open, () => ok({ by: 'id' }))
      .post('/x/bulk', open, () => ok({ by: 'bulk' }))
      .finalize();
    await assert.rejects(routes.dispatch('GET', 'http://h/x/bulk', context()), (error) => {
      assert.ok(isLecternError(error));
      assert.equal(error.code, 'method_not_allowed');
      assert.deepEqual(error.headers, { Allow: 'POST, OPTIONS' });
      return true;
    });
  });

  it('refuses a route registered twice or after the table is finalized', () => {
    const routes = new RouteTable().get('/x', open, () => ok({}));
    assert.throws(() => routes.get('/x', open, () => ok({})), /registered twice/);
    routes.finalize();
    assert.throws(() => routes.post('/y', open, () => ok({})), /finalized/);
  });

  it('checks the scope a route declares before its handler runs: 401 without a caller, 403 without the scope', async () => {
    let ran = 0;
    const declared = (scope: OperationSpec['scope']): OperationSpec => ({ ...open, scope });
    const routes = new RouteTable()
      .get('/read', declared('users:read'), () => ok({ ran: ++ran }))
      .get('/any', declared('token'), () => ok({ ran: ++ran }))
      .get('/open', open, () => ok({ ran: ++ran }))
      .finalize();
    const as = (actor: Actor | undefined) =>
      ({
        get ctx() {
          if (!actor) throw Object.assign(new Error('unauthenticated'), { unauthenticated: true });
          return { actor, requestId: 'r' };
        },
        params: {},
        query: new URLSearchParams(),
      }) as unknown as RouteContext;
    const reader: Actor = { kind: 'user', userId: 1, publicId: 'p', role: 'admin', scopes: new Set(['users:read']) };
    const other: Actor = { kind: 'user', userId: 1, publicId: 'p', role: 'admin', scopes: new Set(['groups:read']) };

    assert.deepEqual((await routes.dispatch('GET', 'http://h/read', as(reader)))?.body, { ran: 1 });
    await assert.rejects(
      routes.dispatch('GET', 'http://h/read', as(other)),
      (error) => isLecternError(error) && error.code === 'insufficient_scope',
    );
    await assert.rejects(routes.dispatch('GET', 'http://h/read', as(undefined)), /unauthenticated/);
    await assert.rejects(routes.dispatch('GET', 'http://h/any', as(undefined)), /unauthenticated/);
    assert.deepEqual((await routes.dispatch('GET', 'http://h/any', as(other)))?.body, { ran: 2 });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/open', as(undefined)))?.body, { ran: 3 });
    assert.equal(ran, 3, 'no refused request reached its handler');
  });
});
