/**
 * `GET /api/v2/about/`: the version for any signed-in caller; for admins, the database, instance
 * and which optional features are configured, and never a secret.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, useServer, userWithToken } from '../helpers/server.ts';

const onPostgres = process.env.LECTERN_TEST_DATABASE === 'postgres';
const nodeVersion = /^v\d+\.\d+\.\d+/;

describe('GET /api/v2/about/ with nothing optional configured', () => {
  const server = useServer({ args: ['--disable-webhooks'] });

  it('tells an admin the database, the instance and that email and single sign-on are off', async () => {
    const response = await server.api.get('/api/v2/about/');
    assert.equal(response.status, 200, response.text);
    const { version, node_version, configuration } = response.body;
    assert.match(version, /^\d+\.\d+\.\d+/);
    assert.match(node_version, nodeVersion);
    assert.equal(configuration.database, onPostgres ? 'postgres' : 'sqlite');
    assert.match(configuration.instance_id, /^test-[12]$/);
    assert.deepEqual(configuration.webhooks, { enabled: false });
    assert.deepEqual(configuration.email, { configured: false, from: null, reminder_days: null });
    assert.equal(configuration.single_sign_on, null);
    assert.match(configuration.scim.base_url, /\/scim\/v2$/);
  });

  it('shows others the version only, and refuses a request without a token', async () => {
    const learner = await userWithToken(server, 'user', 'enrollments:read');
    const response = await learner.api.get('/api/v2/about');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(Object.keys(response.body).sort(), ['configuration', 'node_version', 'version']);
    assert.equal(response.body.configuration, null);
    const organizer = await userWithToken(server, 'organizer');
    assert.equal((await organizer.api.get('/api/v2/about/')).body.configuration, null);
    expectError(await server.api.get('/api/v2/about/', { token: null }), 401, 'unauthenticated');
  });
});

describe('GET /api/v2/about/ with email and single sign-on configured', () => {
  const smtpPassword = 'smtp-pass-4b1d';
  const clientSecret = 'client-secret-9f2e';
  const server = useServer({
    args: [
      ...['--smtp-url', `smtp://mailer:${smtpPassword}@127.0.0.1:2525`, '--mail-from', 'Learning <learning@example.com>'],
      ...['--oidc-issuer', 'https://id.example.com/realms/team', '--oidc-client-id', 'lectern', '--oidc-client-secret', clientSecret],
      ...['--oidc-name', 'Keycloak', '--public-url', 'https://learn.example.com/'],
    ],
  });

  it('says which features are on without exposing a password or the client secret', async () => {
    const response = await server.api.get('/api/v2/about/');
    assert.equal(response.status, 200, response.text);
    const { configuration } = response.body;
    assert.deepEqual(configuration.webhooks, { enabled: true });
    assert.deepEqual(configuration.email, { configured: true, from: 'Learning <learning@example.com>', reminder_days: 3 });
    assert.deepEqual(configuration.single_sign_on, {
      issuer: 'https://id.example.com/realms/team',
      name: 'Keycloak',
      creates_users: false,
    });
    assert.equal(configuration.scim.base_url, 'https://learn.example.com/scim/v2');
    assert.equal(configuration.public_url, 'https://learn.example.com/');
    for (const secret of [smtpPassword, clientSecret, 'mailer:', server.adminToken]) assert.ok(!response.text.includes(secret), secret);
  });
});
