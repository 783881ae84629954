import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { abortWithin } from './abort-within.ts';

describe('abortWithin', () => {
  it('leaves nothing on the outer signal once released, however many operations used it', () => {
    const shutdown = new AbortController();
    for (let i = 0; i < 10_000; i++) abortWithin(shutdown.signal, 60_000).release();
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 0);
  });

  it('aborts with the outer signal while the operation runs, and says the time did not run out', () => {
    const shutdown = new AbortController();
    const operation = abortWithin(shutdown.signal, 60_000);
    shutdown.abort(new Error('stopping'));
    assert.equal(operation.signal.aborted, true);
    assert.equal((operation.signal.reason as Error).message, 'stopping');
    assert.equal(operation.timedOut(), false);
    operation.release();
  });

  it('starts aborted when the outer signal already is', () => {
    const shutdown = new AbortController();
    shutdown.abort();
    const operation = abortWithin(shutdown.signal, 60_000);
    assert.equal(operation.signal.aborted, true);
    operation.release();
  });

  it('aborts when the time runs out, and not after being released', async () => {
    const shutdown = new AbortController();
    const late = abortWithin(shutdown.signal, 20);
    const released = abortWithin(shutdown.signal, 20);
    released.release();
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(late.signal.aborted, true);
    assert.equal((late.signal.reason as DOMException).name, 'TimeoutError');
    assert.equal(late.timedOut(), true);
    assert.equal(released.signal.aborted, false);
    late.release();
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 0);
  });
});
