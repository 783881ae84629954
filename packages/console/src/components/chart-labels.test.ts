import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelLayout } from './chart-labels.ts';

describe('chart labels', () => {
  const states = ['completed', 'in progress', 'not started', 'dropped', 'exempted'];

  it('slants labels that would run into each other, with room below for them', () => {
    const narrow = labelLayout(states, 240);
    assert.equal(narrow.rotate, -45);
    assert.ok(narrow.size >= 'in progress'.length * 7 * 0.7, `axis size ${narrow.size}`);
  });

  it('keeps short labels level', () => {
    assert.deepEqual(labelLayout(['1★', '2★', '3★', '4★', '5★'], 240), { rotate: 0, size: 30 });
    assert.equal(labelLayout(states, 520 * 4).rotate, 0);
  });
});
