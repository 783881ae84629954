/**
 * The HTTP hot path on a database of 100 000 users: an authenticated GET by id (held against a
 * bare node:http + better-sqlite3 server doing the same work, `_bare-server.ts`), a filtered list
 * page with its COUNT, search pages, and a 500-user bulk job from submission to `completed`.
 *
 * BENCH_HTTP_ONLY=bulk runs the bulk job alone (after the warm-up), BENCH_BULK_RUNS times (3 by
 * default), for comparing changes to the job engine without the minutes the loads take.
 */
import type { ChildProcess } from 'node:child_process';
import { cpuSeconds, load, pinSelf, reportLoad, startBareServer, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';
import { usersDatabase } from './_users-data.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ONLY_BULK = process.env.BENCH_HTTP_ONLY === 'bulk';
const BULK_RUNS = Number(process.env.BENCH_BULK_RUNS ?? 3);
const { database, token, ids } = await usersDatabase('http', USERS);

pinSelf();
const server = await startBenchServer(database.target);
try {
  const options = { token, seconds: SECONDS, connections: 16 };
  await load(server.url, ['/api/v2/users/?page_size=1'], { ...options, seconds: 1 }); // warm-up
  if (!ONLY_BULK) await loads(options);
  await bulkJob(server.url);
} finally {
  await stopBenchServer(server.child);
  await database.dispose();
}

/** Everything but the bulk job: reads by id (and the hot path), a filtered list, searches, a deep page. */
async function loads(options: { token: string; seconds: number; connections: number }) {
  const throughput = async (label: string, paths: string[]) => reportLoad(label, await load(server.url, paths, options), 'throughput');
  const byId = ids.map((id) => `/api/v2/users/${id}/`);
  await throughput('GET /users/<id>', byId);
  await hotPath(server, byId);
  await throughput('GET /users/?role=organizer&is_active=true (page+count)', [
    '/api/v2/users/?role=organizer&is_active=true&ordering=-date_joined',
  ]);
  await throughput('GET /users/?search=user 4242', ['/api/v2/users/?search=user%204242']);
  for (const term of ['user 4242', 'ser 77', '@example']) {
    const path = `/api/v2/users/?search=${encodeURIComponent(term)}`;
    const result = await load(server.url, [path], { ...options, connections: 1 });
    reportLoad(`GET /users/?search=${term} (one connection)`, result, 'latency', { below: 10 });
  }
  await throughput('GET /users/?page=50&page_size=100 (name order)', ['/api/v2/users/?page=50&page_size=100&ordering=name']);
}

/**
 * Lectern and the bare server loaded at once, 50 connections each, both pinned to the same core:
 * the ratio of their requests per CPU-second is what Lectern's layers cost per request, whatever
 * else the machine is doing. The bare server reads SQLite files only.
 */
async function hotPath(lectern: { url: string; child: ChildProcess }, paths: string[]) {
  const hot = { token, seconds: SECONDS, connections: 50 };
  if (database.dialect !== 'sqlite') {
    const { perCpu } = await loadPerCpuSecond(lectern, paths, hot);
    report('GET /users/<id>, 50 connections: requests per CPU-second', Math.round(perCpu), 'req/CPU-s');
    return;
  }
  const bare = await startBareServer(database.target);
  try {
    await load(bare.url, paths, { ...hot, seconds: 1 }); // warm-up
    const [ours, theirs] = await Promise.all([loadPerCpuSecond(lectern, paths, hot), loadPerCpuSecond(bare, paths, hot)]);
    const errors = ours.run.errors + theirs.run.errors;
    report(
      'GET /users/<id>, 50 connections: Lectern, req per CPU-second',
      Math.round(ours.perCpu),
      'req/CPU-s',
      `${ours.run.perSecond} req/s`,
    );
    report(
      'GET /users/<id>, 50 connections: bare server, req per CPU-second',
      Math.round(theirs.perCpu),
      'req/CPU-s',
      `${theirs.run.perSecond} req/s`,
    );
    report(
      'hot path: Lectern ÷ bare server (req per CPU-second)',
      ours.perCpu / theirs.perCpu,
      '×',
      `both on one core at once${errors ? `, ERRORS ${errors}` : ''}`,
      { atLeast: 0.8 },
    );
  } finally {
    await stopBenchServer(bare.child, { quiet: true });
  }
}

/** Loads one server and counts the requests it answered per second of CPU it used meanwhile. */
async function loadPerCpuSecond(server: { url: string; child: ChildProcess }, paths: string[], options: Parameters<typeof load>[2]) {
  const before = cpuSeconds(server.child.pid!);
  const run = await load(server.url, paths, options);
  return { run, perCpu: run.requests / (cpuSeconds(server.child.pid!) - before) };
}

/**
 * A 500-user bulk job from its submission to `completed`, BULK_RUNS times; the median, and (beside
 * it) each run as submit-answered + the rest, which tells the 202's cost from the job's.
 */
async function bulkJob(url: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const runs: Array<{ total: number; accepted: number }> = [];
  for (let run = 0; run < BULK_RUNS; run++) {
    const users = Array.from({ length: 500 }, (_, i) => ({ email: `bulk-${run}-${i}@example.com`, name: `Bulk ${run} ${i}` }));
    const started = performance.now();
    const submitted = await fetch(`${url}/api/v2/users/bulk/`, { method: 'POST', headers, body: JSON.stringify({ users }) });
    const job = (await submitted.json()) as { id: string };
    const accepted = performance.now() - started;
    for (;;) {
      const polled = (await (await fetch(`${url}/api/v2/users/bulk/${job.id}/`, { headers })).json()) as {
        status: string;
        succeeded: number;
      };
      if (polled.status === 'completed' || polled.status === 'failed') {
        if (polled.succeeded !== 500) console.error(`bulk job ${job.id}: ${polled.status}, ${polled.succeeded} of 500 succeeded`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    runs.push({ total: performance.now() - started, accepted });
  }
  const median = [...runs].sort((a, b) => a.total - b.total)[Math.floor(runs.length / 2)]!.total;
  const each = runs.map((r) => `${r.total.toFixed(0)} (${r.accepted.toFixed(0)}+${(r.total - r.accepted).toFixed(0)}) ms`).join(', ');
  report(`500-user bulk job, submit → completed (median of ${runs.length})`, median, 'ms', each, { below: 1000 });
}
