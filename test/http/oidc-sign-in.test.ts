/**
 * Console single sign-on against a real OpenID provider (oidc-provider, in this process): the
 * whole flow over HTTP, each refusal, and the pending request kept in the database so the other
 * instance takes the callback (on PostgreSQL, two servers behind one front address).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryDatabase } from '../helpers/database.ts';
import {
  signInAtProvider,
  startFrontProxy,
  startOpenIdProvider,
  type FrontProxy,
  type TestOpenIdProvider,
} from '../helpers/openid-provider.ts';
import { expectError, runCli, uniqueEmail, useServer, type TestServer } from '../helpers/server.ts';

/** The provider and a front address for the servers, started before them (the servers' settings name both). */
function useIdentityProvider(): { provider: () => TestOpenIdProvider; front: () => FrontProxy } {
  let provider: TestOpenIdProvider | undefined;
  let front: FrontProxy | undefined;
  before(async () => {
    front = await startFrontProxy();
    provider = await startOpenIdProvider(`${front.url}/console/auth/oidc/callback`);
  });
  after(async () => {
    await provider?.close();
    await front?.close();
  });
  return { provider: () => provider!, front: () => front! };
}

const ssoArgs = (provider: TestOpenIdProvider, front: FrontProxy, extra: string[] = []) => ({
  args: ['--public-url', front.url, '--oidc-issuer', provider.issuer, '--oidc-client-id', provider.clientId, ...extra],
  // the secret from the environment, as the documentation advises
  env: { LECTERN_OIDC_CLIENT_SECRET: provider.clientSecret },
});

/** A sign-in from the button to Lectern's last redirect: started on one instance, called back on the last. */
async function singleSignOn(server: TestServer, front: FrontProxy, login: string): Promise<{ callback: string; landing: URL }> {
  front.targets = server.urls;
  front.pick = () => 0;
  const started = await fetch(`${front.url}/console/auth/oidc/`, { redirect: 'manual' });
  assert.equal(started.status, 302, await started.text());
  const callback = await signInAtProvider(started.headers.get('location')!, login);
  assert.ok(callback.startsWith(`${front.url}/console/auth/oidc/callback?`), callback);
  return { callback, landing: await takeCallback(server, front, callback) };
}

/** The callback, taken by the last instance: the one that did not start the sign-in, when there are two. */
async function takeCallback(server: TestServer, front: FrontProxy, callback: string): Promise<URL> {
  front.pick = () => server.urls.length - 1;
  const answer = await fetch(callback, { redirect: 'manual' });
  assert.equal(answer.status, 302, await answer.text());
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  const landing = new URL(answer.headers.get('location')!, front.url);
  assert.equal(landing.pathname, '/console/sign-in');
  return landing;
}

describe('console single sign-on', () => {
  const idp = useIdentityProvider();
  const server = useServer(() => ssoArgs(idp.provider(), idp.front(), ['--oidc-name', 'Example IdP']));

  async function account(login: string, claims: { email?: string; email_verified?: boolean; name?: string }) {
    idp.provider().accounts.set(login, claims);
  }

  it('offers the button, and sends the browser to the provider with code flow, PKCE, state and nonce', async () => {
    const options = await server.api.get('/api/v2/console/sign-in-options/', { token: null });
    assert.equal(options.status, 200, options.text);
    assert.deepEqual(options.body, { oidc: { name: 'Example IdP', url: `${idp.front().url}/console/auth/oidc/` } });

    const started = await fetch(`${server.url}/console/auth/oidc/`, { redirect: 'manual' });
    assert.equal(started.status, 302);
    const target = new URL(started.headers.get('location')!);
    assert.equal(target.origin, idp.provider().issuer);
    const params = target.searchParams;
    assert.equal(params.get('response_type'), 'code');
    assert.equal(params.get('client_id'), idp.provider().clientId);
    assert.equal(params.get('scope'), 'openid email profile');
    assert.equal(params.get('redirect_uri'), `${idp.front().url}/console/auth/oidc/callback`);
    assert.equal(params.get('code_challenge_method'), 'S256');
    assert.match(params.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(params.get('state')!.length >= 32 && params.get('nonce')!.length >= 32);
    // kept for the callback, the state only as its hash
    const rows = await queryDatabase(server.dbFile, 'select state_hash, created, expires_at from oidc_requests');
    assert.ok(rows.length > 0);
    assert.ok(rows.every((row: any) => /^[0-9a-f]{64}$/.test(row.state_hash) && row.state_hash !== params.get('state')));
    assert.ok(rows.every((row: any) => Date.parse(row.expires_at) - Date.parse(row.created) === 600_000));
  });

  it('signs an active user in by their verified email, ignoring case, once per state', async () => {
    const email = uniqueEmail('Sso.Person');
    const created = await server.api.post('/api/v2/users/', { email, name: 'Sso Person', role: 'organizer' });
    assert.equal(created.status, 201, created.text);
    await account('person', { email: email.toUpperCase(), email_verified: true });

    const { callback, landing } = await singleSignOn(server, idp.front(), 'person');
    const code = landing.searchParams.get('code');
    assert.ok(code, landing.href);
    const exchanged = await server.api.post('/api/v2/console/sign-in/', { code }, { token: null });
    assert.equal(exchanged.status, 201, exchanged.text);
    const me = await server.api.get('/api/v2/me/', { token: exchanged.body.token });
    assert.equal(me.body.user.email, email);

    const audit = await server.api.get(`/api/v2/audit-log/?action=console.signed_in&resource_id=${created.body.public_id}`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.data.length, 1, audit.text);
    const entry = audit.body.data[0];
    assert.deepEqual(entry.resource, { type: 'user', public_id: created.body.public_id });
    assert.equal(entry.actor.public_id, created.body.public_id);
    assert.equal(entry.changes, null);

    // the same answer again (a replayed state): the request was taken by the first
    const replayed = await takeCallback(server, idp.front(), callback);
    assert.equal(replayed.searchParams.get('error'), 'sign_in_failed');
    assert.equal(replayed.searchParams.get('code'), null);
  });

  it('refuses an email no user has, and a deactivated user', async () => {
    await account('stranger', { email: uniqueEmail('stranger'), email_verified: true });
    assert.equal((await singleSignOn(server, idp.front(), 'stranger')).landing.searchParams.get('error'), 'unknown_user');

    const email = uniqueEmail('gone');
    const created = await server.api.post('/api/v2/users/', { email, name: 'Gone', role: 'user' });
    assert.equal((await server.api.patch(`/api/v2/users/${created.body.public_id}/`, { is_active: false })).status, 200);
    await account('gone', { email, email_verified: true });
    assert.equal((await singleSignOn(server, idp.front(), 'gone')).landing.searchParams.get('error'), 'inactive_user');
  });

  it('refuses an unverified email, and an ID token without one', async () => {
    const email = uniqueEmail('unverified');
    assert.equal((await server.api.post('/api/v2/users/', { email, name: 'Unverified', role: 'user' })).status, 201);
    await account('unverified', { email, email_verified: false });
    assert.equal((await singleSignOn(server, idp.front(), 'unverified')).landing.searchParams.get('error'), 'sign_in_failed');
    await account('no-email', {});
    assert.equal((await singleSignOn(server, idp.front(), 'no-email')).landing.searchParams.get('error'), 'sign_in_failed');
  });

  describe('an ID token the provider should not have sent', () => {
    let email = '';
    before(async () => {
      email = uniqueEmail('tampered');
      assert.equal((await server.api.post('/api/v2/users/', { email, name: 'Tampered', role: 'admin' })).status, 201);
      await account('tampered', { email, email_verified: true });
    });
    after(() => idp.provider().tamper(undefined));

    const cases: Array<[string, Parameters<TestOpenIdProvider['tamper']>]> = [
      ['for another audience', [(claims) => ({ ...claims, aud: 'another-application' })]],
      ['expired an hour ago', [(claims) => ({ ...claims, iat: claims.iat! - 7200, exp: claims.iat! - 3600 })]],
      ['signed with a key the provider does not publish', [(claims) => claims, { forge: true }]],
      ['for another nonce', [(claims) => ({ ...claims, nonce: 'a-nonce-lectern-never-sent' })]],
      ['from another issuer', [(claims) => ({ ...claims, iss: 'https://idp.example.com' })]],
    ];
    for (const [what, tampering] of cases) {
      it(`refuses one ${what}`, async () => {
        idp.provider().tamper(...tampering);
        const { landing } = await singleSignOn(server, idp.front(), 'tampered');
        assert.equal(landing.searchParams.get('error'), 'sign_in_failed', landing.href);
        idp.provider().tamper(undefined);
      });
    }

    it('signs the same person in once the provider behaves', async () => {
      const { landing } = await singleSignOn(server, idp.front(), 'tampered');
      assert.ok(landing.searchParams.get('code'), landing.href);
    });
  });

  it('refuses a state older than 10 minutes, one it never issued, and a refusal from the provider', async () => {
    const email = uniqueEmail('slow');
    assert.equal((await server.api.post('/api/v2/users/', { email, name: 'Slow', role: 'user' })).status, 201);
    await account('slow', { email, email_verified: true });
    const front = idp.front();
    front.targets = server.urls;
    const started = await fetch(`${front.url}/console/auth/oidc/`, { redirect: 'manual' });
    const callback = await signInAtProvider(started.headers.get('location')!, 'slow');
    await queryDatabase(server.dbFile, "update oidc_requests set expires_at = '2000-01-01T00:00:00.000Z'");
    assert.equal((await takeCallback(server, front, callback)).searchParams.get('error'), 'sign_in_failed');

    const unknown = `${front.url}/console/auth/oidc/callback?code=abc&state=never-issued`;
    assert.equal((await takeCallback(server, front, unknown)).searchParams.get('error'), 'sign_in_failed');
    assert.equal(
      (await takeCallback(server, front, `${front.url}/console/auth/oidc/callback`)).searchParams.get('error'),
      'sign_in_failed',
    );

    const again = await fetch(`${front.url}/console/auth/oidc/`, { redirect: 'manual' });
    const state = new URL(again.headers.get('location')!).searchParams.get('state')!;
    const denied = `${front.url}/console/auth/oidc/callback?error=access_denied&state=${encodeURIComponent(state)}`;
    assert.equal((await takeCallback(server, front, denied)).searchParams.get('error'), 'sign_in_failed');
  });
});

describe('console single sign-on creating users', () => {
  const idp = useIdentityProvider();
  const server = useServer(() => ssoArgs(idp.provider(), idp.front(), ['--oidc-create-users']));

  it('makes an unknown verified email a new active user, and signs them in', async () => {
    const email = uniqueEmail('newcomer');
    idp.provider().accounts.set('newcomer', { email, email_verified: true, name: 'New Comer' });
    const { landing } = await singleSignOn(server, idp.front(), 'newcomer');
    const code = landing.searchParams.get('code');
    assert.ok(code, landing.href);
    const exchanged = await server.api.post('/api/v2/console/sign-in/', { code }, { token: null });
    const me = await server.api.get('/api/v2/me/', { token: exchanged.body.token });
    assert.equal(me.body.user.email, email);
    assert.equal(me.body.user.name, 'New Comer');
    const user = await server.api.get(`/api/v2/users/${me.body.user.public_id}/`);
    assert.equal(user.body.role, 'user');
    assert.equal(user.body.is_active, true);
  });
});

describe('console single sign-on not set up', () => {
  const server = useServer();

  it('offers no button, and answers its routes 404 in the envelope', async () => {
    const options = await server.api.get('/api/v2/console/sign-in-options/', { token: null });
    assert.deepEqual(options.body, { oidc: null });
    expectError(await server.api.get('/console/auth/oidc/', { token: null }), 404, 'not_found');
    expectError(await server.api.get('/console/auth/oidc/callback?state=x&code=y', { token: null }), 404, 'not_found');
  });

  it('refuses a plain-http issuer off loopback, and an issuer without its client', async () => {
    const plain = await runCli(['serve', '--db', ':memory:', '--oidc-issuer', 'http://idp.example.com', '--oidc-client-id', 'x']);
    assert.equal(plain.code, 2, plain.stderr);
    assert.match(plain.stderr, /https:\/\//);
    const alone = await runCli(['serve', '--db', ':memory:', '--port', '0', '--oidc-issuer', 'https://idp.example.com']);
    assert.equal(alone.code, 2, alone.stderr);
    assert.match(alone.stderr, /oidc_client_id and oidc_client_secret/);
  });
});
