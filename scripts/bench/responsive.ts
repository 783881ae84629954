/**
 * Whether the API stays responsive while the server works: one client reads a user by id in a
 * loop (one keep-alive connection) while, in turn, one assignments import runs, two imports run at
 * once, a CSV export of every assignment is read at full speed, and 50 clients run a heavy search
 * (`search=a&ordering=-name&page_size=100`) over the users. For each load: the reader's p50, p99
 * and longest answer, the server's longest event-loop stall (`lectern_event_loop_delay_seconds`
 * with quantile 1) and its longest database transaction on either thread
 * (`lectern_db_longest_transaction_seconds`), both read from /metrics before and after, and how
 * long a write waits: a second client renames the same user every 200 ms, one PATCH at a time;
 * then import and export rows per second. On PostgreSQL one more import runs with the writer sent to
 * a second server on the same database (a write of another server, which shares no memory with the
 * one importing, waits for the import's batch until that server sees it in pg_locks).
 *
 * Sizes (scaled down for a quick look): BENCH_RESPONSIVE_ROWS assignments per import (200 000),
 * BENCH_RESPONSIVE_USERS users (300 000; the imports name the first ROWS / 50 of them).
 * The server may use both cores (its worker threads are part of what is measured).
 *
 * BENCH_RESPONSIVE_EXPORT_ONLY=1 measures the export alone, on the assignments benchmark's data
 * set (BENCH_ASSIGNMENTS rows, 1 000 000 by default, seeded once and cached) instead of the rows
 * the imports wrote: no import runs, so the export's own figures come quickly at any size.
 */
import { request, type IncomingMessage } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { createLectern } from '@lectern/core';
import { ASSIGNMENTS, seedAssignments, type AssignmentsDataSet } from './_assignments-data.ts';
import { benchDatabase, seededDatabase } from './_database.ts';
import { quantile, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const ROWS = Number(process.env.BENCH_RESPONSIVE_ROWS ?? 200_000);
const USERS = Number(process.env.BENCH_RESPONSIVE_USERS ?? 300_000);
const CONTENT_PER_IMPORT = 50;
const SEARCHERS = 50;
const SEARCH_SECONDS = Number(process.env.BENCH_RESPONSIVE_SEARCH_SECONDS ?? 15);
/** the pause between two of the writer's PATCHes in `measure` */
const WRITE_EVERY_MS = 200;
const learners = Math.ceil(ROWS / CONTENT_PER_IMPORT);
const sizes = `${ROWS} rows per import, ${USERS} users`;

const exportOnly = process.env.BENCH_RESPONSIVE_EXPORT_ONLY === '1';
const onPostgres = Boolean(process.env.LECTERN_BENCH_POSTGRES);
const seeded = exportOnly
  ? await seededDatabase(
      'assignments',
      new URL('./_assignments-data.ts', import.meta.url).pathname,
      { assignments: ASSIGNMENTS },
      seedAssignments,
    )
  : undefined;
const database = seeded?.database ?? (await benchDatabase('responsive'));
const items: string[] = [];
let admin = seeded?.meta.token ?? '';
if (!seeded) {
  const seeding = createLectern({ storage: await database.open() });
  admin = (await seeding.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
  for (let i = 0; i < CONTENT_PER_IMPORT * (onPostgres ? 4 : 3); i++)
    items.push((await seeding.content.create(seeding.context(), 'article', { name: `Course ${i}` })).public_id);
  await seeding.close();
}
const { url, child } = await startBenchServer(database.target, ['--log-level', 'warn'], '0,1');
const headers = { authorization: `Bearer ${admin}` };
const pool = new Pool(url, { connections: SEARCHERS + 4 });

/** A JSON answer (its fields read as the benchmark needs them) or a text one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several routes, read loosely
type Answer = any;

async function call(method: string, path: string, body?: string, type = 'application/json'): Promise<Answer> {
  const response = await pool.request({
    method: method as 'GET',
    path,
    headers: { ...headers, 'content-type': type },
    ...(body ? { body } : {}),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
  return text.startsWith('{') ? JSON.parse(text) : text;
}

/** Uploads a CSV import and resolves once it has finished, with its rows per second. */
async function runImport(kind: string, csv: string): Promise<{ rows: number; perSecond: number }> {
  const started = performance.now();
  const submitted = await call('POST', `/api/v2/imports/?kind=${kind}`, csv, 'text/csv');
  for (;;) {
    const state = await call('GET', `/api/v2/imports/${submitted.id}/`);
    if (state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled') {
      if (state.status !== 'completed' || state.failed > 0) console.log(`(import ${kind}: ${state.status}, ${state.failed} rows failed)`);
      return { rows: state.total_rows, perSecond: Math.round(state.total_rows / ((performance.now() - started) / 1000)) };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The longest event-loop stall and the longest database transaction since the previous call, in ms. */
async function longest(): Promise<{ stall: number; transaction: number }> {
  const lines: string[] = (await call('GET', '/metrics')).split('\n');
  const ms = (prefix: string) => {
    const line = lines.find((entry) => entry.startsWith(`${prefix} `));
    return line ? Number(line.split(' ')[1]) * 1000 : NaN;
  };
  return { stall: ms('lectern_event_loop_delay_seconds{quantile="1"}'), transaction: ms('lectern_db_longest_transaction_seconds') };
}

/**
 * Sends `request(n)` one at a time on a connection of its own until `work` settles, pausing
 * `pauseMs` after each answer (none: the next goes at once); latencies in ms, sorted.
 */
async function timeRequests(
  work: Promise<unknown>,
  request: (n: number) => Omit<Dispatcher.RequestOptions, 'origin'>,
  pauseMs = 0,
  server = url,
): Promise<number[]> {
  const client = new Pool(server, { connections: 1 });
  const latencies: number[] = [];
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  for (let n = 0; !done; n++) {
    const options = request(n);
    const started = performance.now();
    const response = await client.request(options);
    await response.body.text();
    if (response.statusCode !== 200) console.log(`(${options.method} ${options.path} answered ${response.statusCode})`);
    latencies.push(performance.now() - started);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await client.close();
  await work;
  return latencies.sort((a, b) => a - b);
}

/** `writer`: the server the PATCHes go to, when not the one the reader reads from */
async function measure(label: string, userPath: string, work: () => Promise<unknown>, writer = url): Promise<void> {
  await longest();
  const running = work();
  const [latencies, writes] = await Promise.all([
    // the reader: one user by id, again as soon as it is answered
    timeRequests(running, () => ({ method: 'GET', path: userPath, headers })),
    // the writer: renames the same user every WRITE_EVERY_MS, how long a request's write waits for
    // the work's transactions (on SQLite, the background thread's)
    timeRequests(
      running,
      (n) => ({
        method: 'PATCH',
        path: userPath,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Reader renamed ${n}` }),
      }),
      WRITE_EVERY_MS,
      writer,
    ),
  ]);
  const { stall, transaction } = await longest();
  const detail = `${latencies.length} GETs, p50 ${quantile(latencies, 0.5).toFixed(1)} ms`;
  report(`${label}: GET by id p99`, quantile(latencies, 0.99), 'ms', detail, { below: 50 });
  report(`${label}: GET by id max`, latencies.at(-1) ?? 0, 'ms', '', { below: 200 });
  report(`${label}: longest event-loop stall`, stall, 'ms', '', { reported: true });
  report(`${label}: longest database transaction`, transaction, 'ms', '', { reported: true });
  const writeDetail = `${writes.length} PATCHes, p50 ${quantile(writes, 0.5).toFixed(1)} ms`;
  report(`${label}: PATCH a user p99`, quantile(writes, 0.99), 'ms', writeDetail, { reported: true });
  report(`${label}: PATCH a user max`, writes.at(-1) ?? 0, 'ms', '', { reported: true });
}

const assignmentsCsv = (items: string[]) => {
  const lines = ['user_email,content_item_id'];
  for (let u = 0; u < learners; u++) for (const item of items) lines.push(`r${u}@example.com,${item}`);
  return `${lines.join('\n')}\n`;
};

const exportAll = () =>
  new Promise<number>((resolve, reject) => {
    const req = request(`${url}/api/v2/assignments/?format=csv`, { headers }, (response: IncomingMessage) => {
      let lines = 0;
      response.on('data', (chunk: Buffer) => {
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      response.on('end', () => resolve(lines - 1));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

/** The export alone, on the seeded assignments: the reader's latencies, the stall, and rows/s. */
async function exportPhase(userPath: string, rows: number): Promise<void> {
  let exported = 0;
  const exportStarted = performance.now();
  await measure(`CSV export (${rows} rows)`, userPath, async () => (exported = await exportAll()));
  report('CSV export rows/s', Math.round(exported / ((performance.now() - exportStarted) / 1000)), 'rows/s', `${exported} rows`, {
    reported: true,
  });
}

/** Every phase: the imports, the export of what they wrote, the searches. */
async function fullRun(): Promise<void> {
  console.log(`responsive: ${sizes}`);
  const users = Array.from({ length: USERS }, (_, i) => `r${i}@example.com,Reader ${i}`);
  const usersRun = await runImport('users', `email,name\n${users.join('\n')}\n`);
  report(`import users (${USERS} rows)`, usersRun.perSecond, 'rows/s', '', { reported: true });
  const someone = (await call('GET', '/api/v2/users/?page_size=1')).data[0].public_id as string;
  const userPath = `/api/v2/users/${someone}/`;

  await measure('idle', userPath, () => new Promise((resolve) => setTimeout(resolve, 2000)));

  let one = { rows: 0, perSecond: 0 };
  await measure(
    `one import (${ROWS} rows)`,
    userPath,
    async () => (one = await runImport('assignments', assignmentsCsv(items.slice(0, 50)))),
  );
  report(`one import: assignments rows/s`, one.perSecond, 'rows/s', `${one.rows} rows`, { atLeast: 10_705 });

  let together = 0;
  const twoStarted = performance.now();
  await measure(`two imports at once (${ROWS} rows each)`, userPath, async () => {
    const runs = await Promise.all([
      runImport('assignments', assignmentsCsv(items.slice(50, 100))),
      runImport('assignments', assignmentsCsv(items.slice(100, 150))),
    ]);
    together = runs.reduce((sum, run) => sum + run.rows, 0);
  });
  report('two imports: rows/s together', Math.round(together / ((performance.now() - twoStarted) / 1000)), 'rows/s', '', {
    reported: true,
  });

  if (onPostgres) {
    const second = await startBenchServer(database.target, ['--log-level', 'warn'], '0,1');
    try {
      let run = { rows: 0, perSecond: 0 };
      await measure(
        `one import, writes on a second server (${ROWS} rows)`,
        userPath,
        async () => (run = await runImport('assignments', assignmentsCsv(items.slice(150, 200)))),
        second.url,
      );
      report('one import, writes on a second server: rows/s', run.perSecond, 'rows/s', `${run.rows} rows`, { reported: true });
    } finally {
      await stopBenchServer(second.child);
    }
  }

  await exportPhase(userPath, ROWS * (onPostgres ? 4 : 3));

  const searchPath = '/api/v2/users/?search=a&ordering=-name&page_size=100';
  let searches = 0;
  let refused = 0;
  await measure(`${SEARCHERS} concurrent searches`, userPath, async () => {
    const deadline = performance.now() + SEARCH_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: SEARCHERS }, async () => {
        while (performance.now() < deadline) {
          const response = await pool.request({ method: 'GET', path: searchPath, headers });
          await response.body.text();
          if (response.statusCode === 200) searches++;
          else if (response.statusCode === 503) refused++;
          else throw new Error(`search: ${response.statusCode}`);
        }
      }),
    );
  });
  report('searches answered per second', Math.round(searches / SEARCH_SECONDS), 'req/s', `${refused} answered 503`, { reported: true });
}

/** The export alone, on the seeded assignments. */
async function exportOnlyRun(meta: AssignmentsDataSet): Promise<void> {
  console.log(`responsive, export only: ${ASSIGNMENTS} assignments`);
  const userPath = `/api/v2/users/${meta.probe.user}/`;
  await measure('idle', userPath, () => new Promise((resolve) => setTimeout(resolve, 2000)));
  await exportPhase(userPath, ASSIGNMENTS);
}

try {
  await (seeded ? exportOnlyRun(seeded.meta) : fullRun());
} finally {
  await pool.close();
  await stopBenchServer(child);
  await database.dispose();
}
