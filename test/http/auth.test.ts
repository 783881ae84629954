import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiClient, expectError, runCliJson, startServer, uniqueEmail, userWithToken, useServer } from '../helpers/server.ts';

describe('authentication, scopes and roles', () => {
  const server = useServer();

  it('needs a bearer token: missing or malformed header is unauthenticated, a bad token invalid_token', async () => {
    expectError(await server.api.get('/api/v2/users/', { token: null }), 401, 'unauthenticated');
    expectError(await server.api.get('/api/v2/users/', { token: null, headers: { authorization: 'Basic abc' } }), 401, 'unauthenticated');
    expectError(await server.api.get('/api/v2/users/', { token: null, headers: { authorization: 'Bearer' } }), 401, 'unauthenticated');
    expectError(await server.api.get('/api/v2/users/', { token: 'lpat_' + 'A'.repeat(43) }), 401, 'invalid_token');
    expectError(await server.api.get('/api/v2/users/', { token: 'not-even-a-token' }), 401, 'invalid_token');
  });

  it('accepts the bootstrap admin token printed at first start', async () => {
    assert.match(server.adminToken, /^lpat_[0-9A-Za-z]{43}$/);
    assert.match(server.output(), /Bootstrap admin API token/);
    const users = await server.api.get('/api/v2/users/?role=admin');
    assert.equal(users.status, 200);
    assert.equal(users.body.data[0].email, 'admin@example.com');
  });

  it('creates a token once, lists it without the secret, and revokes it', async () => {
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'ci deploy' });
    assert.equal(created.status, 201, created.text);
    const token = created.body;
    assert.match(token.token, /^lpat_[0-9A-Za-z]{43}$/);
    assert.equal(token.token_prefix, token.token.slice(0, 11));
    assert.deepEqual(
      Object.keys(token).sort(),
      ['created', 'expires_at', 'last_used_at', 'name', 'public_id', 'scopes', 'token', 'token_prefix', 'user'].sort(),
    );
    assert.equal(token.expires_at, null);
    assert.ok(token.scopes.includes('webhooks:write'));

    const own = server.api.withToken(token.token);
    assert.equal((await own.get('/api/v2/users/')).status, 200);
    const listed = await server.api.get('/api/v2/api-tokens/');
    const entry = listed.body.data.find((t: any) => t.public_id === token.public_id);
    assert.ok(entry);
    assert.equal(entry.token, undefined);
    assert.equal((await server.api.get(`/api/v2/api-tokens/${token.public_id}/`)).body.name, 'ci deploy');

    assert.equal((await server.api.delete(`/api/v2/api-tokens/${token.public_id}/`)).status, 204);
    expectError(await own.get('/api/v2/users/'), 401, 'invalid_token');
    expectError(await server.api.delete(`/api/v2/api-tokens/${token.public_id}/`), 404, 'not_found');
    expectError(await server.api.get(`/api/v2/api-tokens/${token.public_id}/`), 404, 'not_found');
  });

  it('validates token requests: expiry in the past, unknown scopes, scopes beyond the role', async () => {
    const past = await server.api.post('/api/v2/api-tokens/', { name: 'old', expires_at: '2020-01-01T00:00:00Z' });
    expectError(past, 422, 'validation_error');
    assert.ok(past.body.error.field_errors.expires_at);
    const unknown = await server.api.post('/api/v2/api-tokens/', { name: 'x', scopes: ['users:read', 'sudo'] });
    expectError(unknown, 422, 'validation_error');
    assert.match(unknown.body.error.field_errors.scopes[0], /sudo/);
    expectError(await server.api.post('/api/v2/api-tokens/', {}), 422, 'validation_error');

    const { api } = await userWithToken(server, 'user');
    const beyond = await api.post('/api/v2/api-tokens/', { name: 'grab', scopes: ['users:write'] });
    expectError(beyond, 422, 'validation_error');
    assert.match(beyond.body.error.field_errors.scopes[0], /users:write/);
  });

  it('treats an expired token as invalid_token', async () => {
    // far enough ahead that the token is still good when the next request arrives on a loaded
    // machine (300 ms was not, with test files running side by side)
    const soon = new Date(Date.now() + 3000).toISOString();
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'short', expires_at: soon });
    assert.equal(created.status, 201, created.text);
    const api = server.api.withToken(created.body.token);
    assert.equal((await api.get('/api/v2/users/')).status, 200);
    // polls until the expiry has passed on the server's clock; the answer, not the time, is checked
    let response = await api.get('/api/v2/users/');
    for (let tries = 0; response.status === 200 && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      response = await api.get('/api/v2/users/');
    }
    expectError(response, 401, 'invalid_token');
  });

  it('rejects tokens of deactivated users, which deactivation revokes for good', async () => {
    const { user, api } = await userWithToken(server, 'organizer');
    assert.equal((await api.get('/api/v2/users/')).status, 200);
    assert.equal((await server.api.patch(`/api/v2/users/${user.public_id}/`, { is_active: false })).status, 200);
    expectError(await api.get('/api/v2/users/'), 401, 'invalid_token');
    assert.equal((await server.api.patch(`/api/v2/users/${user.public_id}/`, { is_active: true })).status, 200);
    expectError(await api.get('/api/v2/users/'), 401, 'invalid_token');
  });

  it('answers forbidden when the role can never use the route, insufficient_scope when the token lacks it', async () => {
    const learner = await userWithToken(server, 'user');
    const forbidden = await learner.api.get('/api/v2/users/');
    expectError(forbidden, 403, 'forbidden');
    expectError(await learner.api.post('/api/v2/groups/', { name: 'nope' }), 403, 'forbidden');

    const organizer = await userWithToken(server, 'organizer');
    expectError(await organizer.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'x' }), 403, 'forbidden');

    const reader = await userWithToken(server, 'admin', 'users:read');
    assert.equal((await reader.api.get('/api/v2/users/')).status, 200);
    const lacking = await reader.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'x' });
    expectError(lacking, 403, 'insufficient_scope');
    assert.match(lacking.body.error.message, /users:write/);
    expectError(await reader.api.get('/api/v2/groups/'), 403, 'insufficient_scope');
  });

  it('answers a read as the caller is now, right after its role was lowered or its token revoked', async () => {
    // on a shared database a read of a recent caller runs beside its token's statement: what it
    // answers must still be what the statement finds, on whichever server
    const organizer = await userWithToken(server, 'organizer');
    for (let i = 0; i < 4; i++) assert.equal((await organizer.api.get('/api/v2/users/')).status, 200);
    const lowered = await server.api.patch(`/api/v2/users/${organizer.user.public_id}/`, { role: 'user' });
    assert.equal(lowered.status, 200, lowered.text);
    for (let i = 0; i < 4; i++) expectError(await organizer.api.get('/api/v2/users/'), 403, 'forbidden');

    // an export's answer streams: one thrown away is ended (reads-beside-token.test.ts checks that
    // its stream gives back what it holds)
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'revoked while reading' });
    const exported = async (token: string) => {
      const response = await fetch(`${server.url}/api/v2/users/?format=csv`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, text: await response.text() };
    };
    for (let i = 0; i < 4; i++) assert.equal((await exported(created.body.token)).status, 200);
    assert.equal((await server.api.delete(`/api/v2/api-tokens/${created.body.public_id}/`)).status, 204);
    for (let i = 0; i < 8; i++) {
      const refused = await exported(created.body.token);
      assert.equal(refused.status, 401);
      assert.equal(JSON.parse(refused.text).error.code, 'invalid_token');
    }
    const after = await exported(server.adminToken);
    assert.equal(after.status, 200, 'exports still answer after those thrown away');
    assert.match(after.text, /^public_id,/);
  });

  it('shows users only their own tokens; admins see all and can filter by user', async () => {
    const first = await userWithToken(server, 'user');
    const second = await userWithToken(server, 'user');
    const mine = await first.api.get('/api/v2/api-tokens/');
    assert.equal(mine.status, 200);
    assert.ok(mine.body.data.every((t: any) => t.user.public_id === first.user.public_id));
    const theirs = (await second.api.get('/api/v2/api-tokens/')).body.data[0];
    expectError(await first.api.get(`/api/v2/api-tokens/${theirs.public_id}/`), 404, 'not_found');
    expectError(await first.api.delete(`/api/v2/api-tokens/${theirs.public_id}/`), 404, 'not_found');
    const filtered = await server.api.get(`/api/v2/api-tokens/?user=${second.user.public_id}`);
    assert.equal(filtered.body.meta.total_count, 1);
    assert.equal(filtered.body.data[0].public_id, theirs.public_id);
  });
});

describe('token usage', () => {
  it('records last_used_at without a write per request, and keeps it across shutdown', async () => {
    const server = await startServer();
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'usage' });
    assert.equal(created.body.last_used_at, null);
    await new ApiClient(server.url, created.body.token).get('/api/v2/users/');
    assert.equal(await server.stop(), 0);
    const listed = await runCliJson(['tokens', 'list', '--db', server.dbFile]);
    const token = listed.find((t: any) => t.public_id === created.body.public_id);
    assert.ok(token.last_used_at, 'flushed at shutdown');
  });
});
