/**
 * The web console: a single-page app (packages/console) served under `/console/`, open without a
 * token (it signs in with one), and its own routes: the exchange of a one-time sign-in link
 * (`lectern console-url`) for a short-lived token, the sign-in options and single sign-on.
 *
 * The files are answered before the route table (which matches whole API paths, not a folder):
 * `/console/` and any path under it without a file name answer index.html (or the page's own copy of it,
 * html/<page>.html), so an address the app's router made can be bookmarked and reloaded; a missing file
 * with an extension is a 404.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { LecternError, signInExchangeInput, signInExchangeSchema, signInOptionsSchema, type Lectern } from '@lectern/core';
import type { ConsoleFileSource } from '../console/console-files.ts';
import { negotiateEncoding, type Encoding } from '../content-encoding.ts';
import { OidcRelyingParty, type SignInLogger } from '../console/oidc-relying-party.ts';
import { created, ok, type Reply } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function consoleRoutes(routes: RouteTable, lectern: Lectern, logger?: SignInLogger): void {
  // open without a token: the code is the credential, and the app's rate limit per address applies
  routes.post(
    '/api/v2/console/sign-in',
    {
      summary:
        'Exchange a one-time console sign-in link (lectern console-url) for a 12-hour token (422 on `code` when used, expired or unknown)',
      tag: 'Meta',
      scope: null,
      request: signInExchangeInput,
      response: { status: 201, schema: signInExchangeSchema },
    },
    async (rc) => created(await lectern.signInLinks.exchange(rc.body(), rc.requestId)),
  );
  routes.get(
    '/api/v2/console/sign-in-options',
    {
      summary: 'What the console sign-in page offers besides a token: the single sign-on button, or null when not set up',
      tag: 'Meta',
      scope: null,
      response: { status: 200, schema: signInOptionsSchema },
    },
    async () => ok(lectern.oidcSignIn.options()),
  );

  // single sign-on: the browser goes to the provider and comes back with a one-time code or a reason
  const settings = lectern.config.oidc;
  const sso = settings ? new OidcRelyingParty(lectern, settings, logger) : undefined;
  const requireSso = () => {
    if (!sso) throw new LecternError('not_found', 'Single sign-on is not set up on this server (the oidc_* settings).');
    return sso;
  };
  routes.get(
    '/console/auth/oidc',
    {
      summary: "Start a console single sign-on: 302 to the identity provider's authorization endpoint (404 when not set up)",
      tag: 'Meta',
      scope: null,
      response: { status: 302 },
    },
    async () => redirect(await requireSso().authorizationUrl()),
  );
  routes.get(
    '/console/auth/oidc/callback',
    {
      summary:
        'Where the identity provider sends the browser back: 302 to /console/sign-in with a one-time `code`, or with `error` unknown_user, inactive_user or sign_in_failed',
      tag: 'Meta',
      scope: null,
      query: {
        extra: {
          state: { schema: { type: 'string' }, description: 'the state of the request this answers' },
          code: { schema: { type: 'string' }, description: "the provider's authorization code" },
          error: { schema: { type: 'string' }, description: "the provider's refusal, if it refused" },
        },
      },
      response: { status: 302 },
    },
    async (rc) => {
      const outcome = await requireSso().finish(rc.query);
      const param = 'code' in outcome ? `code=${encodeURIComponent(outcome.code)}` : `error=${outcome.error}`;
      return redirect(`/console/sign-in?${param}`);
    },
  );
}

/** A redirect no cache may keep: each one carries a fresh state or a one-time code. */
const redirect = (location: string): Reply => ({ status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } });

/**
 * Nothing from another host, no inline script or style, no framing: what the console loads is
 * exactly what this server sends.
 */
export const CONSOLE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  txt: 'text/plain; charset=utf-8',
};
/** Types worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['html', 'js', 'css', 'json', 'map', 'svg', 'txt']);
/** esbuild's `[name]-[hash]` names: their bytes never change, so browsers keep them a year. */
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+$/;

interface Variant {
  data: Buffer;
  etag: string;
}

interface ConsoleFile {
  type: string;
  cacheControl: string;
  compressible: boolean;
  source: Buffer;
  hash: string;
  variants: Partial<Record<Encoding, Variant>>;
}

export interface ConsolePages {
  /** Whether the path is the console's (or `/`, which leads to it). */
  serves(pathname: string): boolean;
  answer(method: string, pathname: string, query: string, acceptEncoding: string | undefined): Reply;
}

const ALLOW = 'GET, HEAD, OPTIONS';

/** The console's files as replies, each compressed once on first request and kept. */
export function consolePages(source: ConsoleFileSource): ConsolePages {
  let files: Map<string, ConsoleFile> | undefined;

  function load(): Map<string, ConsoleFile> | undefined {
    if (files) return files;
    const built = source();
    if (!built) return undefined;
    files = new Map();
    for (const [name, data] of built) {
      const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
      files.set(name, {
        type: TYPES[extension] ?? 'application/octet-stream',
        // index.html names the current hashed files: a browser must ask every time (an ETag makes that cheap)
        cacheControl: HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache',
        compressible: COMPRESSIBLE.has(extension),
        source: data,
        hash: createHash('sha256').update(data).digest('base64url').slice(0, 22),
        variants: {},
      });
    }
    return files;
  }

  function variant(file: ConsoleFile, wanted: Encoding): { encoding: Encoding; variant: Variant } {
    const encoding = file.compressible ? wanted : 'identity';
    let found = file.variants[encoding];
    if (!found) {
      const data =
        encoding === 'br'
          ? brotliCompressSync(file.source, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: file.source.length },
            })
          : encoding === 'gzip'
            ? gzipSync(file.source, { level: 9 })
            : file.source;
      // each encoding is its own representation, with its own strong validator
      found = file.variants[encoding] = { data, etag: `"${file.hash}${encoding === 'identity' ? '' : `-${encoding}`}"` };
    }
    return { encoding, variant: found };
  }

  function fileReply(file: ConsoleFile, acceptEncoding: string | undefined): Reply {
    const { encoding, variant: chosen } = variant(file, negotiateEncoding(acceptEncoding));
    const headers: Record<string, string> = { ...SECURITY_HEADERS, 'Cache-Control': file.cacheControl, ETag: chosen.etag };
    if (file.compressible) headers.Vary = 'Accept-Encoding';
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    return { status: 200, content: { type: file.type, data: chosen.data }, headers };
  }

  return {
    // `/console/auth/…` are routes (single sign-on), not the app's files
    serves: (pathname) =>
      pathname === '/' || pathname === '/console' || (pathname.startsWith('/console/') && !pathname.startsWith('/console/auth/')),

    answer(method, pathname, query, acceptEncoding) {
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: ALLOW } };
      if (method !== 'GET' && method !== 'HEAD') {
        throw new LecternError('method_not_allowed', `Method ${method} is not allowed here. Allowed: ${ALLOW}.`, {
          headers: { Allow: ALLOW },
        });
      }
      // the server's address leads to the console; `/console` to the folder its relative paths expect
      if (pathname === '/' || pathname === '/console') {
        return { status: 302, headers: { Location: `/console/${query ? `?${query}` : ''}`, 'Cache-Control': 'no-cache' } };
      }
      const built = load();
      const index = built?.get('index.html');
      // looked for again on the next request: building the console needs no restart
      if (!built || !index) throw new LecternError('not_found', 'The console is not built: run `node packages/console/build.mjs`.');
      const name = pathname.slice('/console/'.length);
      const file = built.get(name);
      if (file) return fileReply(file, acceptEncoding);
      // a name with an extension is a file the app asked for; anything else is one of the app's own addresses
      const last = name.slice(name.lastIndexOf('/') + 1);
      if (last.includes('.')) throw new LecternError('not_found', `The console has no file ${name}.`);
      // the page's own copy of index.html, which names the scripts that page needs so they load at once
      const page = built.get(`html/${name.split('/')[0]}.html`);
      return fileReply(page ?? index, acceptEncoding);
    },
  };
}
