/**
 * The HTTP hot path on a database of 100 000 users: an authenticated GET by id (held against a
 * bare node:http + better-sqlite3 server doing the same work, `_bare-server.ts`), a filtered list
 * page with its COUNT, search pages, and a 500-user bulk job from submission to `completed`.
 */
import type { ChildProcess } from 'node:child_process';
import { cpuSeconds, load, pinSelf, reportLoad, startBareServer, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';
import { usersDatabase } from './_users-data.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const { database, token, ids } = await usersDatabase('http', USERS);

pinSelf();
const server = await startBenchServer(database.target);
try {
  const options = { token, seconds: SECONDS, connections: 16 };
  await load(server.url, ['/api/v2/users/?page_size=1'], { ...options, seconds: 1 }); // warm-up
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
  await bulkJob(server.url);
} finally {
  await stopBenchServer(server.child);
  await database.dispose();
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

/** A 500-user bulk job from its submission to `completed`, three times; the median. */
async function bulkJob(url: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) {
    const users = Array.from({ length: 500 }, (_, i) => ({ email: `bulk-${run}-${i}@example.com`, name: `Bulk ${run} ${i}` }));
    const started = performance.now();
    const submitted = await fetch(`${url}/api/v2/users/bulk/`, { method: 'POST', headers, body: JSON.stringify({ users }) });
    const job = (await submitted.json()) as { id: string };
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
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  report('500-user bulk job, submit → completed (median of 3)', runs[1]!, 'ms', runs.map((ms) => `${ms.toFixed(0)} ms`).join(', '), {
    below: 1000,
  });
}
