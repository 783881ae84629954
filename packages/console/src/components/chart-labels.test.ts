import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelLayout } from './chart-labels.ts';

describe('chart labels', () => {
  const states = ['completed', 'in progress', 'not started', 'dropped', 'exempted'];

  it('slants labels that would run into each other, with room below for them', () => {
    const narrow = labelLayout(states, 240);
    assert.equal(narrow.rotate, -45);
    assert.ok(narrow.size >= 'in progress'.length * 7 * 0.7, `axis size ${narrow.size}`);
    const perBar = (240 - 50) / states.length;
    assert.ok(narrow.right >= 'in progress'.length * 7 * 0.7 - perBar / 2, `room on the right for the last label: ${narrow.right}`);
  });

  it('keeps short labels level', () => {
    assert.deepEqual(labelLayout(['1★', '2★', '3★', '4★', '5★'], 240), { rotate: 0, size: 30, right: 8, every: 1 });
    assert.equal(labelLayout(states, 520 * 4).rotate, 0);
  });

  it('labels every other or every third bar when even slanted labels would touch, the last always', () => {
    const weeks = Array.from({ length: 12 }, (_, week) => `${week + 1} Sept`);
    assert.equal(labelLayout(weeks, 880).every, 1);
    assert.equal(labelLayout(weeks, 520).every, 1);
    const narrow = labelLayout(weeks, 240);
    assert.ok(narrow.every >= 2, `every ${narrow.every}`);
    assert.ok(((240 - 50) / 12) * narrow.every >= 17, 'labelled bars are far enough apart');
  });
});
