import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUuid, randomBase32, randomIds } from './ids.ts';

describe('random ids', () => {
  it('are Crockford base-32 of the asked length, across refills of the random pool', () => {
    const seen = new Set<string>();
    // 26 characters at a time crosses the 4 KiB pool's end many times over
    for (let i = 0; i < 2000; i++) {
      const id = randomBase32(26);
      assert.match(id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
      seen.add(id);
    }
    assert.equal(seen.size, 2000, 'no id repeats');
    assert.match(randomIds.prefixed('req_'), /^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(randomBase32(1).length, 1);
  });

  it('every character of the alphabet turns up', () => {
    const characters = new Set(Array.from({ length: 200 }, () => randomBase32(26)).join(''));
    assert.equal(characters.size, 32);
    assert.ok(isUuid(randomIds.uuid()));
  });
});
