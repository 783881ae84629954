import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageSelection, toggledPage, toggledRow } from './selection.ts';
import { runEach } from './run-each.ts';

describe('row selection', () => {
  const page = ['a', 'b', 'c'];

  it('tells none, some and all of the page apart (the header box is indeterminate for some)', () => {
    assert.equal(pageSelection(page, new Set()), 'none');
    assert.equal(pageSelection(page, new Set(['b'])), 'some');
    assert.equal(pageSelection(page, new Set(['a', 'b', 'c'])), 'all');
    assert.equal(pageSelection([], new Set()), 'none', 'an empty page has nothing selected');
  });

  it('selects the whole page from none or some, and clears it from all', () => {
    assert.deepEqual([...toggledPage(page, new Set())], page);
    assert.deepEqual([...toggledPage(page, new Set(['c']))], page);
    assert.deepEqual([...toggledPage(page, new Set(page))], []);
  });

  it('toggles one row without touching the others', () => {
    assert.deepEqual([...toggledRow('b', new Set(['a']))], ['a', 'b']);
    assert.deepEqual([...toggledRow('a', new Set(['a', 'c']))], ['c']);
  });
});

describe('runEach', () => {
  it('keeps every outcome in the items order, failures included, with no more than the limit in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const outcomes = await runEach(
      [1, 2, 3, 4, 5, 6, 7],
      async (n) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 8 - n));
        inFlight--;
        if (n % 3 === 0) throw new Error(`no ${n}`);
      },
      3,
    );
    assert.equal(most, 3);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.item),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.deepEqual(
      outcomes.filter((outcome) => outcome.error).map((outcome) => (outcome.error as Error).message),
      ['no 3', 'no 6'],
    );
  });

  it('answers at once for no items', async () => {
    assert.deepEqual(await runEach([], async () => undefined), []);
  });
});
