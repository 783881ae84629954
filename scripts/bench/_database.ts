/**
 * The database a benchmark runs on: a temporary SQLite file, or, when LECTERN_BENCH_POSTGRES names
 * a PostgreSQL server (`npm run bench -- --db postgres://…` sets it), a fresh database created on
 * that server and dropped afterwards. `target` is what `lectern serve --db` takes.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStorage, openSqliteStorage, type KyselyStorage } from '@lectern/storage';

export interface BenchDatabase {
  /** `sqlite` or `postgres` */
  dialect: string;
  target: string;
  /** a folder for the benchmark's other files */
  dir: string;
  open(): Promise<KyselyStorage>;
  dispose(): Promise<void>;
}

const postgresServer = process.env.LECTERN_BENCH_POSTGRES;

/** One statement on the PostgreSQL server's maintenance database (create and drop databases). */
async function admin(statement: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: postgresServer });
  await client.connect();
  try {
    return (await client.query(statement)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

/** `template`: on PostgreSQL, a database the new one starts as a copy of. */
export async function benchDatabase(name: string, template?: string): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `lectern-bench-${name}-`));
  if (!postgresServer) {
    const file = join(dir, 'bench.db');
    return {
      dialect: 'sqlite',
      target: file,
      dir,
      open: () => openSqliteStorage({ file }),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = `lectern_bench_${name}_${process.pid}`;
  await admin(`create database ${database}${template ? ` template ${template}` : ''}`);
  const url = new URL(postgresServer);
  url.pathname = `/${database}`;
  return {
    dialect: 'postgres',
    target: url.toString(),
    dir,
    open: () => openPostgresStorage({ url: url.toString() }),
    dispose: async () => {
      await admin(`drop database if exists ${database} with (force)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const root = new URL('../../', import.meta.url).pathname;
const cacheDir = join(root, 'node_modules/.cache/lectern-bench');

/**
 * A database seeded once and kept between runs: the large data sets take longer to write than to
 * measure. The cache is keyed by what decides its contents (the seeding script, the migrations and
 * `parameters`), so a change to any of them seeds again. On SQLite the cached file is copied for
 * each run; on PostgreSQL a cached database stays on the server and each run's database is created
 * from it as a template. `seed` fills the fresh database and returns what the run needs to know
 * about it (ids, a token), which is kept beside the data.
 */
export async function seededDatabase<Meta>(
  name: string,
  seedScript: string,
  parameters: Record<string, unknown>,
  seed: (database: BenchDatabase) => Promise<Meta>,
): Promise<{ database: BenchDatabase; meta: Meta }> {
  const migrations = join(root, 'packages/storage/src/migrations');
  const hash = createHash('sha256').update(readFileSync(seedScript)).update(JSON.stringify(parameters));
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(join(migrations, file)));
  const key = `${name}-${hash.digest('hex').slice(0, 16)}`;
  mkdirSync(cacheDir, { recursive: true });
  const metaFile = join(cacheDir, `${key}${postgresServer ? `-${new URL(postgresServer).host.replace(/\W/g, '_')}` : ''}.json`);
  const started = Date.now();

  if (!postgresServer) {
    const database = await benchDatabase(name);
    const file = join(cacheDir, `${key}.db`);
    if (existsSync(file) && existsSync(metaFile)) {
      copyFileSync(file, database.target);
      console.log(`${name}: the seeded data set from the cache (${file})`);
      return { database, meta: JSON.parse(readFileSync(metaFile, 'utf8')) as Meta };
    }
    // earlier keys' files; this key's PostgreSQL metadata stays with its database
    const stale = readdirSync(cacheDir).filter((entry) => entry.startsWith(`${name}-`) && !entry.startsWith(key));
    for (const entry of stale) rmSync(join(cacheDir, entry));
    const meta = await seed(database);
    // the seeding closed its connections, so the file holds everything (no WAL beside it)
    copyFileSync(database.target, `${file}.partial`);
    renameSync(`${file}.partial`, file);
    writeFileSync(metaFile, JSON.stringify(meta));
    console.log(`${name}: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s and cached (${file})`);
    return { database, meta };
  }

  const cached = `lectern_bench_cache_${key.replace(/\W/g, '_')}`;
  const present = await admin(`select 1 from pg_database where datname = '${cached}'`);
  if (present.length > 0 && existsSync(metaFile)) {
    const database = await benchDatabase(name, cached);
    console.log(`${name}: the seeded data set from the cache (database ${cached})`);
    return { database, meta: JSON.parse(readFileSync(metaFile, 'utf8')) as Meta };
  }
  for (const { datname } of await admin(`select datname from pg_database where datname like 'lectern_bench_cache_${name}_%'`)) {
    await admin(`drop database ${datname as string} with (force)`);
  }
  const database = await benchDatabase(name);
  const meta = await seed(database);
  await admin(`create database ${cached} template ${new URL(database.target).pathname.slice(1)}`);
  writeFileSync(metaFile, JSON.stringify(meta));
  console.log(`${name}: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s and cached (database ${cached})`);
  return { database, meta };
}
