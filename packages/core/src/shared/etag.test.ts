import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from './errors.ts';
import { assertIfMatch, etagOf, ifNoneMatchHits } from './etag.ts';

describe('ETags', () => {
  const resource = { public_id: 'a', name: 'Ada' };
  const tag = etagOf(resource);

  it('are strong, quoted and change with the representation', () => {
    assert.match(tag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal(etagOf({ ...resource }), tag);
    assert.notEqual(etagOf({ ...resource, name: 'Ada L.' }), tag);
  });

  it('If-None-Match matches any listed tag, weak tags and *', () => {
    assert.equal(ifNoneMatchHits(undefined, tag), false);
    assert.equal(ifNoneMatchHits(`"other", ${tag}`, tag), true);
    assert.equal(ifNoneMatchHits(`W/${tag}`, tag), true);
    assert.equal(ifNoneMatchHits('*', tag), true);
    assert.equal(ifNoneMatchHits('"other"', tag), false);
  });

  it('If-Match passes when absent, * or matching, and is 412 otherwise', () => {
    assertIfMatch(undefined, resource);
    assertIfMatch('*', resource);
    assertIfMatch(`"x", ${tag}`, resource);
    assert.throws(
      () => assertIfMatch('"stale"', resource),
      (e: unknown) => e instanceof LecternError && e.code === 'precondition_failed',
    );
    assert.throws(
      () => assertIfMatch(`W/${tag}`, resource),
      (e: unknown) => e instanceof LecternError && e.code === 'precondition_failed',
    );
  });
});
