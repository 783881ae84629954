/**
 * What a second Lectern server on the same PostgreSQL database adds, on this machine: one server,
 * then two, loaded by the same client with the same number of connections (spread evenly over the
 * two servers, as a load balancer in front of them would), for a GET by id, a list page with its
 * count, and a PATCH that renames a user (a write: each takes the database's one write lock, so
 * writes do not spread). Requests a second in all, and per CPU-second of the Lectern servers
 * together. The servers may use both cores; the client is pinned to one, and PostgreSQL runs where
 * it can. Runs only when `--db postgres://…` names a server; SQLite's run prints nothing.
 *
 * BENCH_USERS (10 000), BENCH_SECONDS (5) and BENCH_CONNECTIONS (32) bound the run.
 */
import { cpuSeconds, load, pinSelf, startBenchServer, stopBenchServer, type LoadResult } from './_load.ts';
import { report } from './_report.ts';
import { usersDatabase } from './_users-data.ts';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

if (!process.env.LECTERN_BENCH_POSTGRES) {
  console.log('instances measures several servers on one PostgreSQL database: run it with --db postgres://…');
  process.exit(0);
}

const { database, token, ids } = await usersDatabase('instances', USERS);
type Server = Awaited<ReturnType<typeof startBenchServer>>;

const cases: Array<{ label: string; paths: string[]; patch?: (n: number) => unknown }> = [
  { label: 'GET /users/<id>', paths: ids.map((id) => `/api/v2/users/${id}/`) },
  { label: 'GET /users/?role=organizer (page of 20 + count)', paths: ['/api/v2/users/?role=organizer&page_size=20'] },
  { label: 'PATCH /users/<id> (rename)', paths: ids.map((id) => `/api/v2/users/${id}/`), patch: (n) => ({ name: `Renamed ${n}` }) },
];

/** Loads `servers` at once, the connections shared evenly; requests a second, and per CPU-second of the servers. */
async function loadAll(servers: Server[], paths: string[], patch?: (n: number) => unknown) {
  const connections = Math.max(1, Math.floor(CONNECTIONS / servers.length));
  const cpuBefore = servers.map((server) => cpuSeconds(server.child.pid!));
  const runs: LoadResult[] = await Promise.all(
    servers.map((server) => load(server.url, paths, { token, seconds: SECONDS, connections, ...(patch ? { patch } : {}) })),
  );
  const cpu = servers.reduce((sum, server, i) => sum + cpuSeconds(server.child.pid!) - cpuBefore[i]!, 0);
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const errors = runs.reduce((sum, run) => sum + run.errors, 0);
  return { perSecond: requests / SECONDS, perCpu: requests / cpu, errors };
}

pinSelf();
const servers: Server[] = [];
try {
  servers.push(await startBenchServer(database.target, [], '0,1'));
  const one = new Map<string, Awaited<ReturnType<typeof loadAll>>>();
  for (const { label, paths, patch } of cases) {
    await loadAll(servers, paths, patch); // warm-up
    one.set(label, await loadAll(servers, paths, patch));
  }
  servers.push(await startBenchServer(database.target, [], '0,1'));
  for (const { label, paths, patch } of cases) {
    await loadAll(servers.slice(1), paths, patch); // the second server's warm-up
    const two = await loadAll(servers, paths, patch);
    const single = one.get(label)!;
    const errors = single.errors + two.errors;
    report(`${label}: one server`, Math.round(single.perSecond), 'req/s', `${Math.round(single.perCpu)} req per server CPU-s`);
    report(`${label}: two servers`, Math.round(two.perSecond), 'req/s', `${Math.round(two.perCpu)} req per server CPU-s`);
    report(
      `${label}: two ÷ one`,
      two.perSecond / single.perSecond,
      '×',
      `${CONNECTIONS} connections in all${errors ? `, ERRORS ${errors}` : ''}`,
    );
  }
} finally {
  for (const server of servers) await stopBenchServer(server.child, { quiet: true });
  await database.dispose();
}
