import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SeenRows } from './seen-rows.ts';

it('names the first row of each identity, across growth', () => {
  const seen = new SeenRows();
  for (let row = 1; row <= 5000; row++) assert.equal(seen.firstOrRemember(`user-${row}`, row), undefined);
  for (let row = 1; row <= 5000; row += 7) assert.equal(seen.firstOrRemember(`user-${row}`, 9000 + row), row);
  assert.equal(seen.firstOrRemember('user-5001', 6000), undefined);
  assert.equal(seen.firstOrRemember('user-5001', 6001), 6000);
});
