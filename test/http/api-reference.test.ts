import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { useServer } from '../helpers/server.ts';

const installed = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`));

describe('the browsable API reference', () => {
  const server = useServer();

  it('serves a page, open without a token, that loads only this server and reads the OpenAPI document', async () => {
    for (const path of ['/api/v2/docs', '/api/v2/docs/']) {
      const response = await fetch(server.url + path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type')!, /^text\/html/);
      const policy = response.headers.get('content-security-policy')!;
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.match(policy, /connect-src 'self'/);
      const html = await response.text();
      assert.doesNotMatch(html, /https?:\/\//, 'no address of another host in the page');
      assert.doesNotMatch(html, /<script>/, 'no inline script: the policy forbids it');
      // every file the page loads, found from the page's own address
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).filter((link) => !link.startsWith('data:'));
      assert.equal(assets.length, 3, html);
      for (const asset of assets) {
        const loaded = await fetch(new URL(asset, server.url + path));
        assert.equal(loaded.status, 200, `${path} loads ${asset}`);
      }
    }
    const script = await fetch(`${server.url}/api/v2/docs/reference.js`);
    assert.match(script.headers.get('content-type')!, /^text\/javascript/);
    const text = await script.text();
    assert.doesNotMatch(text, /'\/api\/v2\/openapi\.json'/, 'the document is found beside the page, not at a fixed path');
    assert.match(text, /validatorUrl: null/, 'the viewer must not call its public validator');
  });

  it("serves the viewer's own files byte for byte, with their media types", async () => {
    for (const [name, type] of [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
    ] as const) {
      const response = await fetch(`${server.url}/api/v2/docs/${name}`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type')!, type);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), installed(name));
      const head = await fetch(`${server.url}/api/v2/docs/${name}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
      assert.equal(head.headers.get('content-length'), String(installed(name).length));
    }
  });

  it('works behind a proxy that adds a path prefix: every link of the page and its script is relative', async () => {
    // what a browser at https://proxy/lectern/api/v2/docs asks the proxy for, which strips /lectern
    for (const path of ['/api/v2/docs', '/api/v2/docs/']) {
      const html = await (await fetch(server.url + path)).text();
      const links = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).filter((link) => !link.startsWith('data:'));
      for (const link of links) {
        assert.ok(!link.startsWith('/') && !/^[a-z]+:/.test(link), `${link} is relative`);
        const behindProxy = new URL(link, `https://proxy.example/lectern${path}`);
        assert.ok(behindProxy.pathname.startsWith('/lectern/api/v2/docs/'), behindProxy.pathname);
        const upstream = await fetch(server.url + behindProxy.pathname.slice('/lectern'.length));
        assert.equal(upstream.status, 200, behindProxy.pathname);
      }
    }
    // the script computes the document's address from the page's, as the browser would run it
    const script = await (await fetch(`${server.url}/api/v2/docs/reference.js`)).text();
    let options: { url?: string } = {};
    const window = {
      location: { pathname: '/lectern/api/v2/docs/' },
      addEventListener: (_event: string, start: () => void) => start(),
    };
    new Function('window', 'SwaggerUIBundle', script)(window, (given: { url: string }) => (options = given));
    assert.equal(options.url, '/lectern/api/v2/openapi.json');
  });

  it('serves the document, the page and the viewer compressed when the client accepts it', async () => {
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
    const { request } = await import('node:http');
    // node:http does not decompress, so the encoded bytes are seen as sent
    const raw = (path: string, acceptEncoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const chunks: Buffer[] = [];
        request(server.url + path, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    for (const path of ['/api/v2/openapi.json', '/api/v2/docs', '/api/v2/docs/swagger-ui-bundle.js', '/api/v2/docs/swagger-ui.css']) {
      const plain = await raw(path, 'identity');
      assert.equal(plain.headers['content-encoding'], undefined, path);
      assert.equal(plain.headers.vary, 'Accept-Encoding', path);
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['gzip;q=1, br;q=0', 'gzip', gunzipSync],
      ] as const) {
        const encoded = await raw(path, accept);
        assert.equal(encoded.headers['content-encoding'], encoding, `${path} with ${accept}`);
        assert.equal(encoded.headers['content-length'], String(encoded.body.length));
        assert.ok(encoded.body.length < plain.body.length, `${path}: ${encoding} is smaller`);
        assert.deepEqual(decode(encoded.body), plain.body, `${path}: ${encoding} decodes to the same bytes`);
      }
    }
  });

  it('is itself described in the OpenAPI document', async () => {
    const document = await server.api.get('/api/v2/openapi.json', { token: null });
    assert.deepEqual(Object.keys(document.body.paths['/api/v2/docs'].get.responses['200'].content), ['text/html']);
    assert.deepEqual(document.body.paths['/api/v2/docs'].get.security, []);
  });
});
