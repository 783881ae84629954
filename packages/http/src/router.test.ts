import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLecternError } from '@lectern/core';
import { ok } from './reply.ts';
import { RouteTable, type RouteContext } from './router.ts';

const context = () => ({ ctx: {}, params: {}, query: new URLSearchParams() }) as unknown as RouteContext;

describe('route table', () => {
  it('tries literal segments before parameters, whatever the order routes were added in', async () => {
    const routes = new RouteTable()
      .get('/x/:id', (rc) => ok({ by: 'id', id: rc.params.id }))
      .get('/x/:id/tags', () => ok({ by: 'tags' }))
      .post('/x/bulk', () => ok({ by: 'bulk' }))
      .get('/x/bulk/:id', (rc) => ok({ by: 'bulk job', id: rc.params.id }))
      .finalize();
    assert.deepEqual((await routes.dispatch('POST', 'http://h/x/bulk', context()))?.body, { by: 'bulk' });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/x/bulk/7', context()))?.body, { by: 'bulk job', id: '7' });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/x/7', context()))?.body, { by: 'id', id: '7' });
    assert.deepEqual((await routes.dispatch('GET', 'http://h/x/bulk/tags', context()))?.body, { by: 'bulk job', id: 'tags' });
  });

  it("answers another method on a literal path with the literal path's 405, not the parametric route", async () => {
    const routes = new RouteTable()
      .get('/x/:id', () => ok({ by: 'id' }))
      .post('/x/bulk', () => ok({ by: 'bulk' }))
      .finalize();
    await assert.rejects(routes.dispatch('GET', 'http://h/x/bulk', context()), (error) => {
      assert.ok(isLecternError(error));
      assert.equal(error.code, 'method_not_allowed');
      assert.deepEqual(error.headers, { Allow: 'POST, OPTIONS' });
      return true;
    });
  });

  it('refuses a route registered twice or after the table is finalized', () => {
    const routes = new RouteTable().get('/x', () => ok({}));
    assert.throws(() => routes.get('/x', () => ok({})), /registered twice/);
    routes.finalize();
    assert.throws(() => routes.post('/y', () => ok({})), /finalized/);
  });
});
