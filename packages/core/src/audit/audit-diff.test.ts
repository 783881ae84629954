import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldChanges, REDACTED, redactedChange } from './audit-diff.ts';

describe('fieldChanges', () => {
  it('lists only the fields that differ, with their old and new values', () => {
    assert.deepEqual(fieldChanges({ name: 'Ada', role: 'user', is_active: true }, { name: 'Ada L.', role: 'admin', is_active: true }), {
      name: { from: 'Ada', to: 'Ada L.' },
      role: { from: 'user', to: 'admin' },
    });
  });

  it('is null when nothing but the modification stamp changed', () => {
    const before = { name: 'Ada', modified: '2026-01-01T00:00:00.000Z' };
    assert.equal(fieldChanges(before, { name: 'Ada', modified: '2026-01-02T00:00:00.000Z' }), null);
  });

  it('compares nested values by content, not identity', () => {
    assert.equal(fieldChanges({ tags: ['a', 'b'], manager: { public_id: 'x' } }, { tags: ['a', 'b'], manager: { public_id: 'x' } }), null);
    assert.deepEqual(fieldChanges({ tags: ['a'] }, { tags: ['a', 'b'] }), { tags: { from: ['a'], to: ['a', 'b'] } });
  });

  it('treats a field missing on one side as null', () => {
    assert.deepEqual(fieldChanges({ a: 1 }, { b: 2 }), { a: { from: 1, to: null }, b: { from: null, to: 2 } });
    assert.equal(fieldChanges({ a: null }, {}), null);
  });

  it('never carries the value of a secret or a token', () => {
    const changes = fieldChanges(
      { secret: 'whsec_old', token: 'lt_old', url: 'https://a' },
      { secret: 'whsec_new', token: 'lt_new', url: 'https://a' },
    );
    assert.deepEqual(changes, { secret: { from: REDACTED, to: REDACTED }, token: { from: REDACTED, to: REDACTED } });
    assert.doesNotMatch(JSON.stringify(changes), /whsec_|lt_/);
    assert.deepEqual(redactedChange('secret'), { secret: { from: REDACTED, to: REDACTED } });
  });
});
