/**
 * How the server hands out the console's files: the SPA fallback, the redirect from `/`, the
 * security and caching headers, compression by Accept-Encoding, ETags and HEAD. A small console
 * built into a temporary folder stands in for packages/console/dist, so these hold whatever the
 * app looks like.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createLectern, type Lectern } from '@lectern/core';
import { createApp, folderConsoleFiles, listen, type Listening } from '@lectern/http';
import { openSqliteStorage } from '@lectern/storage';
import { tempDir } from '../helpers/server.ts';

const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
const html =
  '<!doctype html><html lang="en"><head><title>t</title><script type="module" src="/console/main-ABCD1234.js"></script></head><body></body></html>\n';
// the Users page's own copy of index.html, naming its scripts
const usersHtml = html.replace('</head>', '<link rel="modulepreload" href="/console/chunks/users-EFGH5678.js"></head>');

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with exactly these headers (fetch would add and undo Accept-Encoding itself). */
function raw(url: string, method = 'GET', headers: Record<string, string> = {}): Promise<Raw> {
  // the path as written: a URL object would resolve `..` before sending
  const { hostname, port } = new URL(url);
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the console files', () => {
  let lectern: Lectern;
  let server: Listening;
  let base: string;
  before(async () => {
    const dir = tempDir();
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'chunks'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), html);
    mkdirSync(join(dist, 'html'));
    writeFileSync(join(dist, 'html/users.html'), usersHtml);
    writeFileSync(join(dist, 'main-ABCD1234.js'), script);
    writeFileSync(join(dist, 'chunks/users-EFGH5678.js'), script);
    writeFileSync(join(dist, 'logo-IJKL9012.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    lectern = createLectern({ storage: await openSqliteStorage({ file: join(dir, 'lectern.db') }) });
    server = await listen(createApp(lectern, { consoleFiles: folderConsoleFiles(dist) }), { port: 0, host: '127.0.0.1' });
    base = server.url;
  });
  after(async () => {
    await server.close();
    await lectern.close();
  });

  it('sends / and /console to /console/, keeping the query', async () => {
    const root = await raw(`${base}/`);
    assert.equal(root.status, 302);
    assert.equal(root.headers.location, '/console/');
    const bare = await raw(`${base}/console?code=abc`);
    assert.equal(bare.status, 302);
    assert.equal(bare.headers.location, '/console/?code=abc');
  });

  it("answers index.html, or the page's own copy of it, uncached but validated, for the app and every address of its router, without a token", async () => {
    for (const [path, expected] of [
      ['/console/', html],
      ['/console/groups', html],
      ['/console/sign-in?code=abc', html],
      ['/console/users', usersHtml],
      ['/console/users/9b1c/edit', usersHtml],
      ['/console/users?page=2', usersHtml],
    ] as const) {
      const page = await raw(`${base}${path}`);
      assert.equal(page.status, 200, path);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(page.body.toString(), expected, path);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.ok(page.headers.etag, path);
    }
  });

  it('locks the page to this server: CSP, nosniff, no referrer', async () => {
    const page = await raw(`${base}/console/`);
    assert.equal(
      page.headers['content-security-policy'],
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
  });

  it('keeps hashed files a year, compressed as the client asks (brotli first), each encoding with its own ETag', async () => {
    const plain = await raw(`${base}/console/main-ABCD1234.js`);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), script);
    assert.equal(plain.headers.vary, 'Accept-Encoding');

    const br = await raw(`${base}/console/main-ABCD1234.js`, 'GET', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.body.length < script.length / 10, `${br.body.length} bytes`);
    assert.equal(brotliDecompressSync(br.body).toString(), script);
    assert.equal(br.headers['content-length'], String(br.body.length));

    const gzip = await raw(`${base}/console/chunks/users-EFGH5678.js`, 'GET', { 'accept-encoding': 'gzip;q=1, br;q=0' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.body).toString(), script);

    assert.notEqual(plain.headers.etag, br.headers.etag);
    const again = await raw(`${base}/console/main-ABCD1234.js`, 'GET', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);

    // images are compressed already
    const png = await raw(`${base}/console/logo-IJKL9012.png`, 'GET', { 'accept-encoding': 'br' });
    assert.equal(png.headers['content-type'], 'image/png');
    assert.equal(png.headers['content-encoding'], undefined);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await raw(`${base}/console/main-ABCD1234.js`, 'HEAD', { 'accept-encoding': 'gzip' });
    const get = await raw(`${base}/console/main-ABCD1234.js`, 'GET', { 'accept-encoding': 'gzip' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers.etag, get.headers.etag);
  });

  it('answers a missing file with an extension 404 in the error envelope, and other methods 405', async () => {
    const missing = await raw(`${base}/console/main-00000000.js`);
    assert.equal(missing.status, 404);
    const body = JSON.parse(missing.body.toString());
    assert.equal(body.error.code, 'not_found');
    assert.ok(body.error.request_id);
    const post = await raw(`${base}/console/`, 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
    const traversal = await raw(`${base}/console/../api/v2/users/`);
    assert.equal(traversal.status, 400);
  });
});

describe('without a built console', () => {
  it('says how to build it, and serves the console once it is built, without a restart', async () => {
    const dir = tempDir();
    const lectern = createLectern({ storage: await openSqliteStorage({ file: join(dir, 'lectern.db') }) });
    const dist = join(dir, 'later');
    const server = await listen(createApp(lectern, { consoleFiles: folderConsoleFiles(dist) }), { port: 0, host: '127.0.0.1' });
    try {
      const page = await raw(`${server.url}/console/`);
      assert.equal(page.status, 404);
      assert.match(JSON.parse(page.body.toString()).error.message, /packages\/console\/build\.mjs/);
      mkdirSync(dist);
      writeFileSync(join(dist, 'index.html'), html);
      mkdirSync(join(dist, 'html'));
      writeFileSync(join(dist, 'html/users.html'), usersHtml);
      assert.equal((await raw(`${server.url}/console/`)).body.toString(), html);
    } finally {
      await server.close();
      await lectern.close();
    }
  });
});
