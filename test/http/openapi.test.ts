import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { allEventTypes, createLectern } from '@lectern/core';
import { probeOperations, registerRoutes, RouteTable, undescribedRoutes } from '@lectern/http';
import { openSqliteStorage } from '@lectern/storage';
import { checkConformance } from '../helpers/openapi-conformance.ts';
import { lecternBin, useServer } from '../helpers/server.ts';

describe('OpenAPI description', () => {
  const server = useServer();
  let document: any;
  before(async () => {
    const response = await server.api.get('/api/v2/openapi.json', { token: null });
    assert.equal(response.status, 200, response.text);
    document = response.body;
  });

  it('describes every registered route (add a route → add its line in http/src/openapi/operations.ts)', async () => {
    const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
    try {
      const routes = registerRoutes(new RouteTable(), lectern);
      assert.deepEqual(undescribedRoutes(routes), []);
      const served = Object.entries(document.paths).flatMap(([path, ops]) =>
        Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
      );
      const registered = [...routes.registered().map(({ method, pattern }) => `${method} ${pattern}`), ...probeOperations.keys()].map(
        (key) => key.replace(/:([A-Za-z_]+)/g, '{$1}'),
      );
      assert.deepEqual(served.sort(), registered.sort());
    } finally {
      await lectern.close();
    }
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(document.openapi, '3.1.0');
    const result = await validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result, null, 1).slice(0, 4000));
  });

  it('carries request bodies from the validating schemas, scopes, headers and the error envelope', () => {
    const create = document.paths['/api/v2/users'].post;
    assert.deepEqual(create.security, [{ bearer: ['users:write'] }]);
    const body = create.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required.sort(), ['email', 'name']);
    assert.equal(body.additionalProperties, false, 'strict input objects reject unknown fields');
    assert.deepEqual(body.properties.role.enum, ['admin', 'organizer', 'user']);
    const got = document.paths['/api/v2/users/{id}'].get;
    assert.ok(got.responses['200'].headers.ETag);
    assert.ok(got.responses['200'].headers['X-Request-Id']);
    assert.ok(got.responses['429'].headers['Retry-After']);
    assert.equal(got.responses['404'].content['application/json'].schema.$ref, '#/components/schemas/Error');
    assert.ok(document.components.schemas.Error.properties.error.properties.code.enum.includes('validation_error'));
    assert.deepEqual(document.paths['/api/v2/openapi.json'].get.security, []);
  });

  it('describes every webhook event payload in `webhooks`', () => {
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...allEventTypes].sort());
  });

  it('`lectern openapi` prints the document the server serves', () => {
    const printed = JSON.parse(execFileSync(process.execPath, [lecternBin, 'openapi'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
    assert.deepEqual(printed, document);
  });
});

describe('the response-validation hook', () => {
  const server = useServer();

  it('rejects a body, a status or a header the description does not allow, naming route and status', async () => {
    const user = (await server.api.post('/api/v2/users/', { email: 'hook@example.com', name: 'Hook' })).body;
    const real = await fetch(`${server.url}/api/v2/users/${user.public_id}/`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    const headers = real.headers;
    checkConformance('GET', `/api/v2/users/${user.public_id}/`, 200, headers, await real.json());
    assert.throws(
      () => checkConformance('GET', `/api/v2/users/${user.public_id}/`, 200, headers, { ...user, role: 'owner' }),
      /OpenAPI mismatch: GET \/api\/v2\/users\/\{id\} → 200: body does not match.*\/role/,
    );
    assert.throws(
      () => checkConformance('GET', '/api/v2/users/', 418, headers, {}),
      /GET \/api\/v2\/users → 418: status 418 is not described/,
    );
    const withoutEtag = new Headers(headers);
    withoutEtag.delete('etag');
    assert.throws(
      () => checkConformance('GET', `/api/v2/users/${user.public_id}`, 200, withoutEtag, user),
      /header ETag is described but missing/,
    );
  });
});
