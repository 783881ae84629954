import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { allEventTypes, createLectern, PING_EVENT_TYPE } from '@lectern/core';
import { registerRoutes, RouteTable } from '@lectern/http';
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

  it('describes every route, as each declares itself where it is registered, the probes too', async () => {
    const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
    try {
      const routes = registerRoutes(new RouteTable(), lectern);
      const served = Object.entries(document.paths).flatMap(([path, ops]) =>
        Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
      );
      const registered = routes.described().map(({ method, pattern }) => `${method} ${pattern}`.replace(/:([A-Za-z_]+)/g, '{$1}'));
      assert.ok(registered.includes('GET /healthz') && registered.includes('GET /readyz'));
      assert.deepEqual(served.sort(), registered.sort());
    } finally {
      await lectern.close();
    }
  });

  it('leaves out SCIM (/scim/v2): identity providers speak RFC 7644, not the v2 API, from a route table of its own', () => {
    assert.deepEqual(
      Object.keys(document.paths).filter((path) => path.startsWith('/scim')),
      [],
    );
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(document.openapi, '3.1.0');
    const result = await validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result, null, 1).slice(0, 4000));
  });

  it('carries request bodies from the validating schemas, scopes, headers and the error envelope', () => {
    const create = document.paths['/api/v2/users'].post;
    assert.deepEqual(create.security, [{ bearer: ['users:write'] }]);
    assert.deepEqual(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/UserCreate' });
    const body = document.components.schemas.UserCreate;
    assert.deepEqual(body.required.sort(), ['email', 'name']);
    assert.equal(body.additionalProperties, false, 'strict input objects reject unknown fields');
    assert.deepEqual(body.properties.role.enum, ['admin', 'organizer', 'user']);
    const got = document.paths['/api/v2/users/{id}'].get;
    assert.ok(got.responses['200'].headers.ETag);
    assert.ok(got.responses['200'].headers['X-Request-Id']);
    assert.deepEqual(got.responses['429'], { $ref: '#/components/responses/TooManyRequests' });
    assert.ok(document.components.responses.TooManyRequests.headers['Retry-After']);
    assert.equal(document.components.responses.NotFound.content['application/json'].schema.$ref, '#/components/schemas/Error');
    assert.ok(document.components.schemas.Error.properties.error.properties.code.enum.includes('validation_error'));
    assert.deepEqual(document.paths['/api/v2/openapi.json'].get.security, []);
  });

  it('describes every webhook event payload in `webhooks`, the test ping too', () => {
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...allEventTypes, PING_EVENT_TYPE].sort());
  });

  it('gives every operation and webhook a unique operationId, and names a server', () => {
    const ids = [document.paths, document.webhooks].flatMap((group) =>
      Object.values(group).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId)),
    );
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0));
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(
      document.servers.map((s: any) => s.url),
      ['/'],
    );
  });

  it("describes each list's filters, bounds, search and sortable fields from its ListSpec", () => {
    const params = Object.fromEntries(
      document.paths['/api/v2/users'].get.parameters.filter((p: any) => p.name).map((p: any) => [p.name, p]),
    );
    assert.deepEqual(params.role.schema.enum, ['admin', 'organizer', 'user']);
    assert.equal(params.is_active.schema.type, 'boolean');
    assert.equal(params.manager.schema.format, 'uuid');
    assert.equal(params.group.schema.format, 'uuid');
    assert.ok(params.date_joined__gte && params.date_joined__lte);
    assert.equal(params.search.schema.type, 'string');
    assert.ok(params.ordering.schema.enum.includes('date_joined') && params.ordering.schema.enum.includes('-date_joined'));
    assert.ok(!params.ordering.schema.enum.includes('is_active'), 'only sortable fields');
    const assignments = document.paths['/api/v2/assignments'].get.parameters.map((p: any) => p.name ?? p.$ref);
    assert.ok(assignments.includes('#/components/parameters/page') && assignments.includes('#/components/parameters/page_size'));
    const state = document.paths['/api/v2/assignments'].get.parameters.find((p: any) => p.name === 'state');
    assert.equal(state.explode, false, 'several states are comma-separated');
    assert.equal(state.schema.type, 'array');
    // every list operation: the ListSpec it parses with is the one described
    for (const [path, ops] of Object.entries<any>(document.paths)) {
      const list = ops.get?.responses['200']?.content?.['application/json']?.schema?.properties?.meta;
      if (!list || path.endsWith('/results')) continue;
      const names = ops.get.parameters.map((p: any) => p.name ?? p.$ref);
      assert.ok(names.includes('#/components/parameters/page'), `${path} describes page`);
    }
  });

  it('names every request and JSON response schema in components, strict where the server is', () => {
    const schemas = document.components.schemas;
    for (const [path, ops] of Object.entries<any>(document.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const request = op.requestBody?.content['application/json']?.schema; // an import's CSV file is a string
        if (request) assert.match(request.$ref, /^#\/components\/schemas\//, `${method} ${path} request`);
        const success = Object.entries<any>(op.responses).find(([status]) => /^[23]/.test(status))![1]; // a redirect's 302 is its success
        const body = success.content?.['application/json']?.schema;
        if (body) assert.match(body.$ref ?? body.properties.data.items.$ref, /^#\/components\/schemas\//, `${method} ${path} response`);
      }
    }
    for (const name of [
      'User',
      'UserCreate',
      'UserUpdate',
      'Group',
      'ContentItem',
      'Article',
      'ArticleCreate',
      'Assignment',
      'Event',
      'Job',
      'JobItem',
    ]) {
      assert.ok(schemas[name], `components.schemas.${name}`);
    }
    const strict = [
      'UserBulkCreate',
      'AssignmentBulkCreate',
      'EnrollmentBulkCreate',
      'EventBulkUpdate',
      'EventSeriesBulkUpdate',
      'BulkTags',
      'BulkTagsReplace',
      'ContentItemUpdate',
    ];
    for (const name of strict) assert.equal(schemas[name].additionalProperties, false, name);
    const archive = document.paths['/api/v2/content-items/bulk/archive'].post.requestBody.content['application/json'].schema.$ref
      .split('/')
      .at(-1);
    assert.equal(schemas[archive].additionalProperties, false);
    assert.equal(schemas[archive].properties.items.items.additionalProperties, false);
    assert.equal(schemas.UserCreate.properties.email.format, 'email');
    assert.equal(schemas.UserCreate.properties.manager.anyOf[0].format, 'uuid');
    assert.equal(schemas.WebhookSubscriptionCreate.properties.events.minItems, 1);
    assert.equal(schemas.WebhookSubscriptionCreate.properties.url.format, 'uri');
    assert.equal(schemas.BulkTags.properties.tags.items.minLength, 1);
  });

  it('gives the main resources examples that match their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    const withExamples = Object.entries<any>(document.components.schemas).filter(([, schema]) => schema.examples);
    assert.ok(withExamples.length >= 5, withExamples.map(([name]) => name).join(', '));
    for (const [name, schema] of withExamples) {
      const validate = ajv.compile({ $ref: `#/components/schemas/${name}`, components: document.components });
      for (const example of schema.examples) assert.ok(validate(example), `${name}: ${JSON.stringify(validate.errors)}`);
    }
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
