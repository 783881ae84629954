/**
 * A real OpenID provider for the single sign-on tests: panva's oidc-provider (certified), in this
 * process on loopback, with its development login form (any login, any password) and a grant that
 * skips the consent screen, as a company's provider does for its own applications. Accounts are
 * given by login; `tamper` lets a test make the provider misbehave (an ID token for another
 * audience, expired, or signed with a key it does not publish) after its real token endpoint ran.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, ProviderAccount>;
  /** rewrites the next ID tokens' claims, re-signed with the provider's key (or, `forge`, with another) */
  tamper(change: ((claims: JWTPayload) => JWTPayload) | undefined, options?: { forge?: boolean }): void;
  close(): Promise<void>;
}

const listenOnLoopback = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

export async function startOpenIdProvider(redirectUri: string): Promise<TestOpenIdProvider> {
  const server = createServer();
  const port = await listenOnLoopback(server);
  const issuer = `http://127.0.0.1:${port}`;
  const signing = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256');
  const kid = 'test-key';
  const accounts = new Map<string, ProviderAccount>();
  const clientId = 'lectern-console';
  const clientSecret = 'a-client-secret-long-enough-for-the-provider';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid, alg: 'RS256', use: 'sig' }] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // the ID token carries the claims, as Okta, Entra ID, Google and Keycloak send them
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['a-cookie-signing-key-for-the-tests'] },
  });
  let rewrite: { change: (claims: JWTPayload) => JWTPayload; forge: boolean } | undefined;
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (rewrite && ctx.path === '/token' && body?.id_token) {
      const claims = rewrite.change(decodeJwt(body.id_token));
      const key = rewrite.forge ? stranger.privateKey : signing.privateKey;
      ctx.body = { ...body, id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key) };
    }
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamper(change, options = {}) {
      rewrite = change ? { change, forge: options.forge ?? false } : undefined;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The address people use, in front of the servers, as a load balancer would be: it sends each
 * request to the server `pick()` names, so a test chooses which instance takes which step.
 */
export interface FrontProxy {
  url: string;
  /** the servers behind it; requests go to `targets[pick()]` */
  targets: string[];
  pick: (path: string) => number;
  close(): Promise<void>;
}

export async function startFrontProxy(): Promise<FrontProxy> {
  const front: FrontProxy = { url: '', targets: [], pick: () => 0, close: async () => {} };
  const server = createServer((incoming: IncomingMessage, outgoing) => {
    const target = new URL(incoming.url ?? '/', front.targets[front.pick(incoming.url ?? '/') % front.targets.length]);
    const forwarded = httpRequest(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  front.url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  front.close = () => new Promise((resolve) => server.close(() => resolve()));
  return front;
}

/** Cookies by name, for one host: the provider's session across its redirects. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }
}

/**
 * Signs in at the provider as `login`, over HTTP as a browser would (its login form posted, its
 * redirects followed), from the 302 Lectern answered `/console/auth/oidc/` with; answers the
 * callback address the provider sends the browser back to.
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let posted = false;
  for (let hop = 0; hop < 10; hop++) {
    const response = await jar.fetch(url);
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location')!, url).href;
      if (!location.startsWith(new URL(authorizationUrl).origin)) return location;
      url = location;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200 || posted) throw new Error(`the provider answered ${response.status}: ${page.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`no login form: ${page.slice(0, 500)}`);
    const form = new URLSearchParams({ prompt: 'login', login, password: 'any' });
    const answer = await jar.fetch(new URL(action, url).href, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    posted = true;
    url = new URL(answer.headers.get('location') ?? url, url).href;
  }
  throw new Error('the provider never sent the browser back');
}
