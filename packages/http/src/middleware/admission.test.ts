import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '@lectern/core';
import type { PlainRequest } from '../plain.ts';
import { AdmissionGate, searchShedding } from './admission.ts';
import type { Exchange } from './pipeline.ts';

const exchange = (method: string, url: string): Exchange => ({
  request: { method, url, headers: {}, body: null } as PlainRequest,
  requestId: 'req_test',
  preflight: false,
  rateHeaders: {},
});

describe('search admission', () => {
  it('refuses a search before the rest of the pipeline (its token lookup) only while the queue is full', async () => {
    const gate = new AdmissionGate({ concurrent: 1, queued: 1 });
    const shed = searchShedding(gate);
    let passed = 0;
    const next = async () => {
      passed++;
      return { status: 200 };
    };
    const running = await gate.enter();
    // one runs, none waits: a search goes on to wait for its turn after its token is checked
    assert.equal(gate.full(), false);
    await shed(exchange('GET', '/api/v2/users/?search=ann'), next);
    const waiting = gate.enter();
    assert.equal(gate.full(), true);
    await assert.rejects(shed(exchange('GET', '/api/v2/users/?page=2&search=ann'), next), (error: unknown) => {
      assert.ok(error instanceof LecternError);
      assert.equal(error.code, 'service_unavailable');
      assert.deepEqual(error.headers, { 'Retry-After': '1' });
      return true;
    });
    // what is not a search, or searches for nothing, is never refused here
    await shed(exchange('GET', '/api/v2/users/?page=2'), next);
    await shed(exchange('GET', '/api/v2/users/?search='), next);
    await shed(exchange('POST', '/api/v2/users/?search=ann'), next);
    assert.equal(passed, 4);
    running();
    (await waiting)();
    assert.equal(gate.full(), false);
  });
});
