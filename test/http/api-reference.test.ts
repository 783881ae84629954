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
      for (const asset of ['/api/v2/docs/swagger-ui-bundle.js', '/api/v2/docs/swagger-ui.css', '/api/v2/docs/reference.js']) {
        assert.ok(html.includes(`"${asset}"`), `the page loads ${asset}`);
      }
    }
    const script = await fetch(`${server.url}/api/v2/docs/reference.js`);
    assert.match(script.headers.get('content-type')!, /^text\/javascript/);
    const text = await script.text();
    assert.match(text, /url: '\/api\/v2\/openapi\.json'/);
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
      const head = await fetch(`${server.url}/api/v2/docs/${name}`, { method: 'HEAD' });
      assert.equal(head.headers.get('content-length'), String(installed(name).length));
    }
  });

  it('is itself described in the OpenAPI document', async () => {
    const document = await server.api.get('/api/v2/openapi.json', { token: null });
    assert.deepEqual(Object.keys(document.body.paths['/api/v2/docs'].get.responses['200'].content), ['text/html']);
    assert.deepEqual(document.body.paths['/api/v2/docs'].get.security, []);
  });
});
