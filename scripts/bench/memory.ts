/**
 * Whether a long-running server's memory levels off. One server under a steady, modest mixed load
 * for BENCH_MEMORY_MINUTES (30): reads by id and lists, user and assignment creates, an import
 * every BENCH_MEMORY_IMPORT_SECONDS (30; users and assignments in turn), a CSV export of every
 * assignment every minute, and webhook deliveries of every assignment event to a receiver
 * in this process. Every BENCH_MEMORY_SAMPLE_SECONDS (20) it prints the server's resident set (from
 * /proc) and its V8 heap in use (from /metrics). Reported: first, last and largest of each, the
 * slope over the last half of the run (least squares, MB per 10 minutes), and how much the lowest
 * sample of the second half exceeds the first half's: both near zero once memory has levelled off.
 *
 * BENCH_MEMORY_SNAPSHOTS=DIR: the server writes a heap snapshot there after the warm-up and at the
 * end (SIGUSR2, `--heapsnapshot-signal`), to compare in Chrome's DevTools (Memory, Comparison).
 * The load is kept small on purpose (about 15 requests a second from one client): what is measured
 * is growth over time, not throughput.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { createLectern } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 30);
const SAMPLE_SECONDS = Number(process.env.BENCH_MEMORY_SAMPLE_SECONDS ?? 20);
const IMPORT_SECONDS = Number(process.env.BENCH_MEMORY_IMPORT_SECONDS ?? 30);
const IMPORT_ROWS = Number(process.env.BENCH_MEMORY_IMPORT_ROWS ?? 1_000);
const EXPORT_SECONDS = 60;
/** pause between two requests of the steady load */
const PACE_MS = 60;
const SNAPSHOTS = process.env.BENCH_MEMORY_SNAPSHOTS;
const CONTENT = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => bytes / 1024 / 1024;

const database = await benchDatabase('memory');
const seeding = createLectern({ storage: await database.open() });
const admin = (await seeding.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
const items: string[] = [];
for (let i = 0; i < CONTENT; i++)
  items.push((await seeding.content.create(seeding.context(), 'article', { name: `Course ${i}` })).public_id);
await seeding.close();

let delivered = 0;
const receiver = createServer((request, response) => {
  // a delivery the server gave up on (its timeout) resets the connection: not this run's concern
  request.on('error', () => undefined);
  request.resume();
  request.on('end', () => {
    delivered++;
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const serverNodeArgs = SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${SNAPSHOTS}`] : [];
if (SNAPSHOTS) process.env.LECTERN_BENCH_SERVER_NODE_ARGS = serverNodeArgs.join(' ');
const { url, child } = await startBenchServer(database.target, ['--log-level', 'warn', '--allow-private-webhook-targets']);
const pid = child.pid!;
const pool = new Pool(url, { connections: 4 });
const headers = { authorization: `Bearer ${admin}` };
const counts = { requests: 0, errors: 0, imports: 0, exports: 0 };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several routes, read loosely
type Answer = any;

/** A request's answer, or `undefined` (counted and the first few shown) when it failed. */
async function call(method: string, path: string, body?: unknown, type = 'application/json'): Promise<Answer> {
  counts.requests++;
  const failed = (why: string) => {
    if (++counts.errors <= 5) console.log(`(${method} ${path}: ${why.slice(0, 200)})`);
    return undefined;
  };
  try {
    const response = await pool.request({
      method: method as 'GET',
      path,
      headers: { ...headers, 'content-type': type },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) return failed(`${response.statusCode} ${text}`);
    return text.startsWith('{') ? JSON.parse(text) : text;
  } catch (error) {
    return failed(String(error));
  }
}

interface Sample {
  minute: number;
  rss: number;
  heap: number;
}

async function sample(started: number): Promise<Sample> {
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  const metrics: string = (await call('GET', '/metrics')) ?? '';
  const line = metrics.split('\n').find((entry) => entry.startsWith('lectern_nodejs_heap_size_used_bytes '));
  return { minute: (performance.now() - started) / 60_000, rss, heap: line ? mb(Number(line.split(' ')[1])) : NaN };
}

/** Least-squares slope of `value` over the samples, per 10 minutes. */
function slopePer10Minutes(samples: Sample[], value: (entry: Sample) => number): number {
  const n = samples.length;
  const meanX = samples.reduce((sum, entry) => sum + entry.minute, 0) / n;
  const meanY = samples.reduce((sum, entry) => sum + value(entry), 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const entry of samples) {
    covariance += (entry.minute - meanX) * (value(entry) - meanY);
    variance += (entry.minute - meanX) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 10;
}

let serial = 0;
let importRound = 0;
const users: string[] = [];

/** One round of the steady load: reads, lists, a user and an assignment created. */
async function steady(): Promise<void> {
  const created = await call('POST', '/api/v2/users/', { email: `steady${serial++}@example.com`, name: `Steady ${serial}` });
  if (created) users.push(created.public_id);
  const someone = users[Math.floor(Math.random() * users.length)];
  if (someone) {
    await call('GET', `/api/v2/users/${someone}/`);
    await call('POST', '/api/v2/assignments/', { user_id: someone, content_item_id: items[serial % CONTENT] });
  }
  await call('GET', '/api/v2/users/?page_size=50&ordering=-date_joined');
  await call('GET', '/api/v2/assignments/?page_size=50');
  await call('GET', `/api/v2/content-items/${items[serial % CONTENT]}/`);
}

/** An import of IMPORT_ROWS rows, users and assignments in turn, followed until it finishes. */
async function importOnce(): Promise<void> {
  const round = importRound++;
  const lines =
    round % 2 === 0
      ? ['email,name', ...Array.from({ length: IMPORT_ROWS }, (_, i) => `imported${round}-${i}@example.com,Imported ${round} ${i}`)]
      : [
          'user_email,content_item_id',
          ...Array.from({ length: IMPORT_ROWS }, (_, i) => `imported${round - 1}-${i}@example.com,${items[i % CONTENT]}`),
        ];
  const submitted = await call(
    'POST',
    `/api/v2/imports/?kind=${round % 2 === 0 ? 'users' : 'assignments'}`,
    `${lines.join('\n')}\n`,
    'text/csv',
  );
  if (!submitted) return;
  for (;;) {
    const state = await call('GET', `/api/v2/imports/${submitted.id}/`);
    if (!state || ['completed', 'failed', 'cancelled'].includes(state.status)) break;
    await sleep(500);
  }
  await call('GET', `/api/v2/imports/${submitted.id}/report/`);
  counts.imports++;
}

async function exportOnce(): Promise<void> {
  await call('GET', '/api/v2/assignments/?format=csv');
  counts.exports++;
}

/** Runs `task` every `seconds` until `deadline`, one at a time. */
async function every(seconds: number, deadline: number, task: () => Promise<unknown>): Promise<void> {
  while (performance.now() < deadline) {
    const next = performance.now() + seconds * 1000;
    await task();
    await sleep(Math.max(0, Math.min(next, deadline) - performance.now()));
  }
}

try {
  await call('POST', '/public_api/v2/webhooks/', { url: receiverUrl, events: ['assignment.*'] });
  // a minute of warm-up: the JIT, statement caches and pools fill before the first sample
  const warmUpEnd = performance.now() + 60_000;
  while (performance.now() < warmUpEnd) {
    await steady();
    await sleep(PACE_MS);
  }
  await importOnce();
  await exportOnce();
  if (SNAPSHOTS) child.kill('SIGUSR2');

  const started = performance.now();
  const deadline = started + MINUTES * 60_000;
  const samples: Sample[] = [];
  console.log(`memory: ${MINUTES} min on ${database.dialect}, an import of ${IMPORT_ROWS} rows every ${IMPORT_SECONDS} s`);
  console.log('minute   RSS MB   heap MB   requests   imports   deliveries');
  await Promise.all([
    every(SAMPLE_SECONDS, deadline, async () => {
      const entry = await sample(started);
      samples.push(entry);
      const cells = [entry.minute.toFixed(1), entry.rss.toFixed(1), entry.heap.toFixed(1), counts.requests, counts.imports, delivered];
      console.log(cells.map((cell, i) => String(cell).padStart(i === 0 ? 6 : 9)).join(''));
    }),
    every(IMPORT_SECONDS, deadline, importOnce),
    every(EXPORT_SECONDS, deadline, exportOnce),
    (async () => {
      while (performance.now() < deadline) {
        await steady();
        await sleep(PACE_MS);
      }
    })(),
  ]);
  samples.push(await sample(started));
  if (SNAPSHOTS) child.kill('SIGUSR2');

  for (const [name, value] of [
    ['RSS', (entry: Sample) => entry.rss],
    ['heap in use', (entry: Sample) => entry.heap],
  ] as const) {
    // a sample whose /metrics request failed has no heap figure
    const read = samples.filter((entry) => Number.isFinite(value(entry)));
    const lastHalf = read.filter((entry) => entry.minute >= MINUTES / 2);
    report(`${name} first`, value(read[0]!), 'MB');
    report(`${name} last`, value(read.at(-1)!), 'MB');
    report(`${name} largest`, Math.max(...read.map(value)), 'MB');
    report(`${name} slope over the last half`, slopePer10Minutes(lastHalf, value), 'MB/10 min', '', { reported: true });
    // the garbage collector's saw-tooth makes the slope swing with where the run stops; the
    // lowest sample of each half (what a collection leaves) rises only when something is kept
    const firstHalf = read.filter((entry) => entry.minute < MINUTES / 2);
    const floor = (entries: Sample[]) => Math.min(...entries.map(value));
    report(`${name} lowest, second half minus first half`, floor(lastHalf) - floor(firstHalf), 'MB', '', { reported: true });
  }
  report('requests', counts.requests, '', `${counts.errors} not 2xx, ${counts.imports} imports, ${counts.exports} exports`);
  report('webhook deliveries received', delivered, '');
  if (SNAPSHOTS) await sleep(5_000);
} finally {
  await pool.close();
  await stopBenchServer(child);
  receiver.close();
  await database.dispose();
}
