import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { actingSubmitter, type SubmitterState } from './submitter-authority.ts';
import type { StoredActor } from './job.ts';

const stored = (tokenId?: number): Extract<StoredActor, { kind: 'user' }> => ({
  kind: 'user',
  userId: 7,
  publicId: 'p',
  role: 'admin',
  scopes: ['users:write', 'assignments:write', 'insights:read'],
  ...(tokenId !== undefined ? { tokenId } : {}),
});
const state = (overrides: Partial<SubmitterState> = {}): SubmitterState => ({
  role: 'organizer',
  isActive: true,
  scopes: ['users:write', 'assignments:write'],
  expiresAt: null,
  ...overrides,
});
const NOW = '2030-01-01T00:00:00.000Z';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof LecternError);
    assert.equal(error.code, 'forbidden');
    return error.message;
  }
  throw new Error('expected a refusal');
};

describe('actingSubmitter', () => {
  it('acts with the current role, the token’s scopes cut to what that role grants', () => {
    const actor = actingSubmitter(stored(3), state(), NOW, 'assignments:write');
    assert.equal(actor.kind, 'user');
    if (actor.kind !== 'user') return;
    assert.equal(actor.role, 'organizer');
    assert.deepEqual([...actor.scopes], ['assignments:write'], 'organizers have no users:write');
    assert.equal(actor.tokenId, 3);
  });

  it('refuses when the token is gone or expired, the user deactivated or gone, or the role no longer allows the job', () => {
    assert.match(
      refusal(() => actingSubmitter(stored(3), undefined, NOW, 'assignments:write')),
      /revoked/,
    );
    assert.match(
      refusal(() => actingSubmitter(stored(), undefined, NOW, 'assignments:write')),
      /no longer exists/,
    );
    assert.match(
      refusal(() => actingSubmitter(stored(3), state({ expiresAt: NOW }), NOW, 'assignments:write')),
      /expired/,
    );
    assert.match(
      refusal(() => actingSubmitter(stored(3), state({ isActive: false }), NOW, 'assignments:write')),
      /deactivated/,
    );
    assert.match(
      refusal(() => actingSubmitter(stored(3), state(), NOW, 'users:write')),
      /role \(organizer\)/,
    );
    assert.match(
      refusal(() => actingSubmitter(stored(), state({ role: 'user' }), NOW, 'insights:read')),
      /role \(user\)/,
    );
  });

  it('a token that expires later still acts', () => {
    assert.equal(actingSubmitter(stored(3), state({ expiresAt: '2030-01-01T00:00:01.000Z' }), NOW, 'assignments:write').kind, 'user');
  });
});
