/**
 * What a request costs Lectern on PostgreSQL against SQLite: the same users on both databases, one
 * Lectern server on each, both pinned to the same core and loaded at once, 50 connections each.
 * Requests per CPU-second of the Lectern process (the database server's own CPU is not counted),
 * for a GET by id and a list page, and their ratio. Runs only when `--db postgres://…` names a
 * server; the SQLite run of `npm run bench` prints nothing.
 *
 * BENCH_USERS (10 000) and BENCH_SECONDS (5) bound the run; LECTERN_BENCH_SERVER_NODE_ARGS passes
 * `--cpu-prof --cpu-prof-dir=DIR` to both servers for a profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createLectern } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';
import { benchDatabase } from './_database.ts';
import { cpuSeconds, load, pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';
import { seedUsers } from './_users-data.ts';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

if (!process.env.LECTERN_BENCH_POSTGRES) {
  console.log('postgres-cost compares SQLite with PostgreSQL: run it with --db postgres://…');
  process.exit(0);
}

/** A bootstrap admin and USERS users; the admin's token and every 97th user's id. */
async function seed(storage: Awaited<ReturnType<typeof openSqliteStorage>>, dialect: string) {
  const lectern = createLectern({ storage });
  const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
  const ids = await seedUsers(storage, dialect, USERS);
  await lectern.close();
  return { token, ids };
}

const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-pg-cost-'));
const sqliteFile = join(dir, 'bench.db');
const sqlite = await seed(await openSqliteStorage({ file: sqliteFile }), 'sqlite');
const postgresDatabase = await benchDatabase('pgcost');
const postgres = await seed(await postgresDatabase.open(), 'postgres');

type Server = { url: string; child: ChildProcess };

async function perCpuSecond(server: Server, token: string, paths: string[]) {
  const before = cpuSeconds(server.child.pid!);
  const run = await load(server.url, paths, { token, seconds: SECONDS, connections: 50 });
  return { run, perCpu: run.requests / (cpuSeconds(server.child.pid!) - before) };
}

pinSelf();
const servers = await Promise.all([startBenchServer(sqliteFile), startBenchServer(postgresDatabase.target)]);
try {
  const [onSqlite, onPostgres] = servers as [Server, Server];
  const cases: Array<{ label: string; paths: (ids: string[]) => string[] }> = [
    { label: 'GET /users/<id>', paths: (ids) => ids.map((id) => `/api/v2/users/${id}/`) },
    { label: 'GET /users/?role=organizer (page of 20 + count)', paths: () => ['/api/v2/users/?role=organizer&page_size=20'] },
  ];
  for (const { label, paths } of cases) {
    // warm-up, one after the other
    await load(onSqlite.url, paths(sqlite.ids), { token: sqlite.token, seconds: 1, connections: 8 });
    await load(onPostgres.url, paths(postgres.ids), { token: postgres.token, seconds: 1, connections: 8 });
    const [a, b] = await Promise.all([
      perCpuSecond(onSqlite, sqlite.token, paths(sqlite.ids)),
      perCpuSecond(onPostgres, postgres.token, paths(postgres.ids)),
    ]);
    const errors = a.run.errors + b.run.errors;
    report(`${label}: SQLite, req per CPU-second`, Math.round(a.perCpu), 'req/CPU-s', `${a.run.perSecond} req/s`);
    report(`${label}: PostgreSQL, req per CPU-second`, Math.round(b.perCpu), 'req/CPU-s', `${b.run.perSecond} req/s`);
    report(`${label}: PostgreSQL ÷ SQLite`, b.perCpu / a.perCpu, '×', `both on one core at once${errors ? `, ERRORS ${errors}` : ''}`);
  }
} finally {
  for (const server of servers) await stopBenchServer(server.child, { quiet: true });
  await postgresDatabase.dispose();
  rmSync(dir, { recursive: true, force: true });
}
