/** `GET /api/v2/me/`: the caller and its token, for any authenticated token, whatever its scopes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliToken, expectError, uniqueEmail, useServer } from '../helpers/server.ts';

describe('GET /api/v2/me/', () => {
  const server = useServer();

  it('describes the bootstrap admin and its token', async () => {
    const response = await server.api.get('/api/v2/me/');
    assert.equal(response.status, 200, response.text);
    const { user, token } = response.body;
    assert.deepEqual(Object.keys(response.body).sort(), ['token', 'user']);
    assert.deepEqual(Object.keys(user).sort(), ['email', 'name', 'public_id', 'role']);
    assert.deepEqual(Object.keys(token).sort(), ['expires_at', 'name', 'public_id', 'scopes']);
    assert.equal(user.email, 'admin@example.com');
    assert.equal(user.role, 'admin');
    assert.equal(token.name, 'bootstrap');
    assert.equal(token.expires_at, null);
    assert.ok(token.scopes.includes('webhooks:write') && token.scopes.includes('users:write'));
    const listed = await server.api.get(`/api/v2/api-tokens/${token.public_id}/`);
    assert.equal(listed.status, 200, 'token.public_id names the token in use');
    assert.equal((await server.api.get('/api/v2/me')).status, 200, 'without the trailing slash too');
  });

  it('needs no scope, and shows the scopes in effect after the user’s role was lowered', async () => {
    const email = uniqueEmail('me');
    const issued = await cliToken(
      server.dbFile,
      email,
      'narrow',
      '--role',
      'organizer',
      '--scopes',
      'content:read,reports:read',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    );
    const api = server.api.withToken(issued.token);
    const me = await api.get('/api/v2/me/');
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body, {
      user: { public_id: issued.user.public_id, name: issued.user.name, email, role: 'organizer' },
      token: {
        public_id: issued.public_id,
        name: 'narrow',
        scopes: ['content:read', 'reports:read'],
        expires_at: '2099-01-01T00:00:00.000Z',
      },
    });

    const lowered = await server.api.patch(`/api/v2/users/${issued.user.public_id}/`, { role: 'user' });
    assert.equal(lowered.status, 200, lowered.text);
    const after = await api.get('/api/v2/me/');
    assert.equal(after.body.user.role, 'user');
    assert.deepEqual(after.body.token.scopes, ['content:read'], 'reports:read is beyond the role user');
  });

  it('needs authentication: none is 401 unauthenticated, a revoked token 401 invalid_token', async () => {
    expectError(await server.api.get('/api/v2/me/', { token: null }), 401, 'unauthenticated');
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'short-lived' });
    await server.api.delete(`/api/v2/api-tokens/${created.body.public_id}/`);
    expectError(await server.api.withToken(created.body.token).get('/api/v2/me/'), 401, 'invalid_token');
  });
});
