import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DueDelivery } from '../ports/webhook-store.ts';
import { pickWithinCaps } from './delivery-worker.ts';

const due = (id: number, endpointId: number): DueDelivery => ({ id, endpointId, eventId: `e${id}`, eventType: 't', attempts: 0, payload: '{}' });

describe('pickWithinCaps', () => {
  it('takes candidates in order while each endpoint stays under its cap', () => {
    const candidates = [due(1, 1), due(2, 1), due(3, 2), due(4, 1), due(5, 2), due(6, 3)];
    assert.deepEqual(
      pickWithinCaps(candidates, new Map(), 2).map((d) => d.id),
      [1, 2, 3, 5, 6],
    );
  });

  it('counts what is already in flight', () => {
    const candidates = [due(1, 1), due(2, 2), due(3, 2)];
    assert.deepEqual(
      pickWithinCaps(candidates, new Map([[1, 2], [2, 1]]), 2).map((d) => d.id),
      [2],
    );
  });
});
