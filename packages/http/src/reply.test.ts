import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etagOf } from '@lectern/core';
import { withEtag, withValidators } from './reply.ts';

describe('replies with validators', () => {
  const resource = { public_id: 'b1c2', name: 'Zoë "Z" \\ Ünal', manager: null, tags: ['a', 'b'], is_active: true };

  it("carry core's ETag of the resource and the JSON it was computed from", () => {
    const reply = withEtag(resource);
    assert.equal(reply.headers?.ETag, etagOf(resource));
    assert.equal(reply.json, JSON.stringify(resource));
    assert.equal(withEtag(resource, 201).status, 201);
  });

  it('keep both when Last-Modified is added', () => {
    const reply = withValidators(resource, '2025-03-04T05:06:07.890Z');
    assert.equal(reply.headers?.ETag, etagOf(resource));
    assert.equal(reply.headers?.['Last-Modified'], 'Tue, 04 Mar 2025 05:06:07 GMT');
    assert.equal(reply.json, JSON.stringify(resource));
  });
});
