import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUuid, randomBase32, randomIds, timeBase32, uuidV7 } from './ids.ts';

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

  it('begin with the time they were made, so that later ids sort after earlier ones', () => {
    const id = uuidV7(Date.UTC(2026, 10, 26));
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), Date.UTC(2026, 10, 26));
    assert.ok(uuidV7(1_000) < uuidV7(2_000));
    assert.notEqual(uuidV7(1_000), uuidV7(1_000), 'the rest is random');

    assert.equal(timeBase32(0), '0000000000');
    assert.equal(timeBase32(32 ** 2 + 5), '0000000105');
    assert.ok(timeBase32(Date.UTC(2026, 0, 1)) < timeBase32(Date.UTC(2026, 0, 2)));
    const [first, second] = [randomIds.prefixed('msg_'), randomIds.prefixed('msg_')];
    assert.match(first!, /^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.ok(first!.slice(4, 14) <= second!.slice(4, 14));
  });
});
