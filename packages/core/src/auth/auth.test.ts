import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { LecternError } from '../shared/errors.ts';
import { authorize, systemActor, type Actor } from './actor.ts';
import { grantedScopes, roleGrants, scopes } from './scopes.ts';
import { generateTokenSecret, hashToken, looksLikeToken, tokenDisplayPrefix } from './token-secret.ts';

const actor = (role: 'admin' | 'organizer' | 'user', tokenScopes = grantedScopes(role)): Actor => ({
  kind: 'user',
  userId: 1,
  publicId: 'p',
  role,
  scopes: new Set(tokenScopes),
});
const outcome = (a: Actor, scope: (typeof scopes)[number]) => {
  try {
    authorize(a, scope);
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof LecternError);
    return error.code;
  }
};

describe('roles and scopes', () => {
  it('grants admins everything and keeps webhooks and user writes away from organizers', () => {
    assert.equal(roleGrants.admin.size, scopes.length);
    assert.equal(outcome(actor('organizer'), 'users:read'), 'ok');
    assert.equal(outcome(actor('organizer'), 'users:write'), 'forbidden');
    assert.equal(outcome(actor('organizer'), 'webhooks:read'), 'forbidden');
    assert.equal(outcome(actor('user'), 'content:read'), 'ok');
    assert.equal(outcome(actor('user'), 'users:read'), 'forbidden');
    assert.equal(outcome(actor('user'), 'groups:read'), 'forbidden');
  });

  it('is forbidden for the role first, insufficient_scope for the token second', () => {
    assert.equal(outcome(actor('admin', ['users:read']), 'users:write'), 'insufficient_scope');
    assert.equal(outcome(actor('user', []), 'users:write'), 'forbidden');
    assert.equal(outcome(systemActor, 'webhooks:write'), 'ok');
  });
});

describe('token secrets', () => {
  it('are lpat_ + 43 base62 characters, unique, hashed with SHA-256', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const token = generateTokenSecret();
      assert.ok(looksLikeToken(token), token);
      seen.add(token);
    }
    assert.equal(seen.size, 200);
    const token = generateTokenSecret();
    assert.match(hashToken(token), /^[0-9a-f]{64}$/);
    // the stored hashes of tokens issued before stay valid: it is plain SHA-256 in hex
    assert.equal(hashToken(token), createHash('sha256').update(token).digest('hex'));
    assert.equal(tokenDisplayPrefix(token), token.slice(0, 11));
    assert.equal(looksLikeToken('lpat_short'), false);
  });
});
