import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rqlErrorPosition } from './rql-position.ts';

describe('rqlErrorPosition', () => {
  it('reads the position the server puts at the start of an expression error', () => {
    assert.equal(rqlErrorPosition("Position 13: Expected ')' to close eq(. The expression ends too early"), 13);
    assert.equal(rqlErrorPosition("Position 0: Unknown property 'nme'"), 0);
  });

  it('gives null for a message naming no position', () => {
    assert.equal(rqlErrorPosition('This field is required.'), null);
  });
});
