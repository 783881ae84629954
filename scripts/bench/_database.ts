/**
 * The database a benchmark runs on: a temporary SQLite file, or, when LECTERN_BENCH_POSTGRES names
 * a PostgreSQL server (`npm run bench -- --db postgres://…` sets it), a fresh database created on
 * that server and dropped afterwards. `target` is what `lectern serve --db` takes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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

export async function benchDatabase(name: string): Promise<BenchDatabase> {
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
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresServer });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${database}`);
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
