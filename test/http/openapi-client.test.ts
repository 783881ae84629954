/**
 * A client generated from the served document drives a live server: openapi-typescript turns
 * the document into types, openapi-fetch uses them, tsc checks the scenario (a misspelt body
 * field, a filter value or sort field the list does not take must not compile), then the scenario
 * runs against the server.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { repoRoot, useServer } from '../helpers/server.ts';

const scenario = `import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

const [baseUrl, token] = process.argv.slice(2) as [string, string];
const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });

const created = await client.POST('/api/v2/users', { body: { email: 'generated@example.com', name: 'Generated', role: 'organizer' } });
if (!created.data) throw new Error(JSON.stringify(created.error));
const id: string = created.data.public_id;
const fetched = await client.GET('/api/v2/users/{id}', { params: { path: { id } } });
const listed = await client.GET('/api/v2/users', { params: { query: { page_size: 5 } } });
const filtered = await client.GET('/api/v2/users', { params: { query: { role: 'organizer', search: 'x', ordering: '-date_joined' } } });
const invalid = await client.POST('/api/v2/users', { body: { email: 'not-an-email', name: 'X' } });
// @ts-expect-error the generated types know the role filter's values
await client.GET('/api/v2/users', { params: { query: { role: 'owner' } } }).catch(() => undefined);
// @ts-expect-error and the fields a list sorts by
await client.GET('/api/v2/users', { params: { query: { ordering: '-is_active' } } }).catch(() => undefined);
// @ts-expect-error the generated types reject a misspelt field
await client.POST('/api/v2/users', { body: { emial: 'typo@example.com', name: 'Typo' } }).catch(() => undefined);
console.log(JSON.stringify({
  role: fetched.data?.role,
  total: listed.data?.meta.total_count,
  filtered: filtered.data?.data.map((user) => user.email),
  error: invalid.error?.error.code,
  field: Object.keys(invalid.error?.error.field_errors ?? {}),
}));
`;

describe('a client generated from the OpenAPI document', { timeout: 120_000 }, () => {
  const server = useServer();
  let dir: string;
  before(async () => {
    // inside the repository so the scenario resolves openapi-fetch from its node_modules
    mkdirSync(join(repoRoot, '.scratch'), { recursive: true });
    dir = mkdtempSync(join(repoRoot, '.scratch', 'openapi-client-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks against the generated types and runs a scenario against the live server', async () => {
    const document = (await server.api.get('/api/v2/openapi.json', { token: null })).body;
    writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(document)));
    writeFileSync(join(dir, 'scenario.ts'), scenario);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: ['node'],
          skipLibCheck: true,
          allowImportingTsExtensions: true,
        },
        files: ['scenario.ts'],
      }),
    );
    const checked = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);

    const output = execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'scenario.ts'), server.url, server.adminToken], {
      encoding: 'utf8',
      cwd: dir,
    });
    assert.deepEqual(JSON.parse(output.trim().split('\n').at(-1)!), {
      role: 'organizer',
      total: 2,
      filtered: ['generated@example.com'],
      error: 'validation_error',
      field: ['email'],
    });
  });
});
