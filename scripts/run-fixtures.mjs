// What the built CLI makes once per test run instead of once per test file:
// - databases already migrated, which test servers start from instead of each applying every
//   migration again (test/helpers/server.ts): a SQLite file the helper copies, and a PostgreSQL
//   database the helper names as CREATE DATABASE's template. Made with the CLI's own `migrate`, so
//   the schema is the one the servers under test would have made. Tests about migrating itself
//   name their own empty database and are not affected;
// - the OpenAPI document (`lectern openapi`) the black-box suite checks every response against
//   (test/helpers/openapi-conformance.ts), which each file had asked a process of its own for,
//   and the validators of its response bodies, which each file had compiled (0.3–0.6 CPU-s each).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';

const lectern = (root, ...args) =>
  spawnSync(process.execPath, [join(root, 'packages/cli/bin/lectern.cjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
const migrate = (root, db) => lectern(root, 'migrate', '--db', db);

/**
 * Makes them; answers the environment that names them to the tests and a cleanup. One that cannot
 * be made is said and left out: the servers then migrate, and the hook asks, as they always could.
 */
export async function makeRunFixtures(root, postgresUrl) {
  const env = {};
  const cleanups = [];
  if (!existsSync(join(root, 'dist/lectern.cjs'))) {
    console.warn('no dist/lectern.cjs (run node build.mjs): test servers migrate their own databases');
    return { env, cleanup: async () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lectern-template-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'migrated.db');
  const sqlite = migrate(root, file);
  // a copy of the main file alone is the whole database only once the WAL is checkpointed away
  if (sqlite.status === 0 && !existsSync(`${file}-wal`)) env.LECTERN_TEST_SQLITE_TEMPLATE = file;
  else console.warn(`the SQLite template could not be made: ${sqlite.stderr || 'a WAL file remained'}`);

  const document = lectern(root, 'openapi');
  if (document.status === 0) {
    env.LECTERN_TEST_OPENAPI_DOCUMENT = join(dir, 'openapi.json');
    writeFileSync(env.LECTERN_TEST_OPENAPI_DOCUMENT, document.stdout);
    try {
      const { writeResponseValidators } = await tsImport('../test/helpers/openapi-validators.ts', import.meta.url);
      const validators = join(dir, 'response-validators.cjs');
      writeResponseValidators(JSON.parse(document.stdout), validators);
      env.LECTERN_TEST_OPENAPI_VALIDATORS = validators;
    } catch (error) {
      console.warn(`the response validators could not be compiled (each file compiles its own): ${error.message}`);
    }
  } else console.warn(`the OpenAPI document could not be made: ${document.stderr}`);

  if (postgresUrl) {
    const name = `lectern_template_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        await client.query(`drop database if exists ${name}`).finally(() => client.end());
      });
    } finally {
      await admin.end();
    }
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const migrated = migrate(root, url.toString());
    if (migrated.status === 0) env.LECTERN_TEST_POSTGRES_TEMPLATE = name;
    else console.warn(`the PostgreSQL template could not be made: ${migrated.stderr}`);
  }
  return {
    env,
    cleanup: async () => {
      for (const step of cleanups) await step().catch((error) => console.warn(`removing a template: ${error.message}`));
    },
  };
}
