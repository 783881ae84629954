import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth.ts';

describe('the server’s heap growth', () => {
  it('is limited to two and a half times the live heap unless the operator chose a growth', () => {
    assert.equal(HEAP_GROWING_PERCENT, 150);
    assert.equal(heapGrowthFlag([], undefined), '--heap-growing-percent=150');
    assert.equal(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=512'), '--heap-growing-percent=150');
    assert.equal(heapGrowthFlag(['--heap-growing-percent=300'], undefined), undefined);
    assert.equal(heapGrowthFlag([], '--max-old-space-size=512 --heap_growing_percent=0'), undefined);
    assert.equal(heapGrowthFlag(['--heap-growing-percent', '50'], ''), undefined);
  });
});
