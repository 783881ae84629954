/**
 * `lectern import` through the server's imports (one upload, processed by the job engine), over
 * HTTP on this machine, as a new user would run it: a 100 000-row users file, a 1 000 000-row
 * assignments file naming 20 000 of those users by email (50 content items each), and 100 000
 * enrollments into events with seats and wait lists, whose seat counts are checked afterwards,
 * then the same users into tighter events where 11 % of the rows are refused (wait list full).
 * Prints rows per second, the importer's peak RSS and the server's peak RSS for each; on a
 * PostgreSQL server that loads pg_stat_statements, also the statements each enrollment row cost.
 * BENCH_IMPORT_ROWS scales the users file (and the others with it) down for a quick look;
 * BENCH_IMPORT_ASSIGNMENTS=0 leaves the assignments file out (the enrollments alone);
 * BENCH_IMPORT_TOP=N prints, after each import on PostgreSQL with pg_stat_statements, the N
 * statements that took the most time in it (calls, summed and mean time, rows);
 * LECTERN_BENCH_SERVER_BIN runs another build (before and after a change).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createLectern } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { cpuSeconds, pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const USERS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ASSIGNMENTS = USERS * 10;
const ENROLLMENTS = USERS;
const CONTENT_ITEMS = 50;
const EVENTS = 200;
const SEATS = 400;
const WAITLIST = 200;
// the tight events: of each event's requests, 60 % find a seat, 29 % a wait-list place, 11 % are refused
const PER_EVENT = ENROLLMENTS / EVENTS;
const TIGHT_SEATS = Math.round(PER_EVENT * 0.6);
const TIGHT_WAITLIST = Math.round(PER_EVENT * 0.29);
const WITH_ASSIGNMENTS = process.env.BENCH_IMPORT_ASSIGNMENTS !== '0';
const database = await benchDatabase('import');
const dir = database.dir;
const bin = process.env.LECTERN_BENCH_SERVER_BIN ?? new URL('../../dist/lectern.cjs', import.meta.url).pathname;

const storage = await database.open();
const lectern = createLectern({ storage });
const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
const ctx = lectern.context();
const content: string[] = [];
for (let i = 0; i < CONTENT_ITEMS; i++) content.push((await lectern.content.create(ctx, 'article', { name: `Course ${i}` })).public_id);
const createEvents = async (name: string, seats: number, waitList: number) => {
  const ids: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const event = await lectern.scheduledEvents.create(ctx, {
      name: `${name} ${i}`,
      is_local: true,
      enrollment_limit: seats,
      wait_list_limit: waitList,
      timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
    } as never);
    ids.push(event.public_id);
  }
  return ids;
};
const events = await createEvents('Session', SEATS, WAITLIST);
const tightEvents = await createEvents('Tight session', TIGHT_SEATS, TIGHT_WAITLIST);
await lectern.close();

/** Statements the server ran so far in the bench's database, where pg_stat_statements is loaded. */
async function statementsSoFar(): Promise<number | undefined> {
  if (database.dialect !== 'postgres') return undefined;
  const client = new pg.Client({ connectionString: database.target });
  await client.connect();
  try {
    const result = await client.query(
      'select sum(calls)::bigint as calls from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())',
    );
    return Number(result.rows[0].calls);
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

const TOP = Number(process.env.BENCH_IMPORT_TOP ?? 0);
interface StatementTotals {
  query: string;
  calls: number;
  ms: number;
  rows: number;
}
/** Each statement's totals so far in the bench's database (pg_stat_statements), by query id. */
async function statementTotals(): Promise<Map<string, StatementTotals> | undefined> {
  if (TOP === 0 || database.dialect !== 'postgres') return undefined;
  const client = new pg.Client({ connectionString: database.target });
  await client.connect();
  try {
    const result = await client.query(
      'select queryid::text as id, query, calls::float8 as calls, total_exec_time as ms, rows::float8 as rows from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())',
    );
    return new Map(result.rows.map((r) => [r.id as string, { query: r.query, calls: r.calls, ms: r.ms, rows: r.rows }]));
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}
/** The TOP statements by time spent between two `statementTotals`. */
function printTop(label: string, before: Map<string, StatementTotals> | undefined, after: Map<string, StatementTotals> | undefined) {
  if (!before || !after) return;
  const spent = [...after].map(([id, a]) => {
    const b = before.get(id);
    return { query: a.query, calls: a.calls - (b?.calls ?? 0), ms: a.ms - (b?.ms ?? 0), rows: a.rows - (b?.rows ?? 0) };
  });
  const calls = spent.reduce((sum, s) => sum + s.calls, 0);
  const ms = spent.reduce((sum, s) => sum + s.ms, 0);
  console.log(`  ${label}: ${calls} statements, ${(ms / 1000).toFixed(2)} s of statement time`);
  for (const s of spent.sort((x, y) => y.ms - x.ms).slice(0, TOP)) {
    const text = s.query.replace(/\s+/g, ' ').slice(0, 110);
    console.log(
      `  ${s.ms.toFixed(0).padStart(7)} ms ${String(s.calls).padStart(6)} calls ${(s.ms / Math.max(s.calls, 1)).toFixed(2).padStart(7)} ms ${String(s.rows).padStart(8)} rows  ${text}`,
    );
  }
}

pinSelf();
const { url, child } = await startBenchServer(database.target);
const serverPeakMb = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

interface ImportRun {
  summary: { total: number; created: number; existing: number; failed: number };
  seconds: number;
  peakMb: number;
  /** from the import's own times: received and processed (created to completed), and processed alone */
  server: { seconds: number; processing: number; cpu: number };
}

/** Runs the built importer; resolves with its summary, the seconds it took and its peak RSS. */
async function runImport(kind: string, file: string): Promise<ImportRun> {
  const before = await statementTotals();
  const cpuBefore = cpuSeconds(child.pid!);
  const run = await runImporter(kind, file);
  const cpu = cpuSeconds(child.pid!) - cpuBefore;
  printTop(`import ${kind}`, before, await statementTotals());
  return { ...run, server: { ...(await serverTimes()), cpu } };
}

/**
 * The newest import's times as the server recorded them: the importer's own time adds its start,
 * the report's download and up to a second of its status polling (at 1 s intervals once running).
 */
async function serverTimes(): Promise<Omit<ImportRun['server'], 'cpu'>> {
  const check = createLectern({ storage: await database.open() });
  try {
    const [newest] = (await check.imports.list(check.context(), { ordering: '-created_at', page_size: '1' })).data;
    const at = (iso: string | null | undefined) => Date.parse(iso ?? '');
    return {
      seconds: (at(newest?.completed_at) - at(newest?.created_at)) / 1000,
      processing: (at(newest?.completed_at) - at(newest?.started_at)) / 1000,
    };
  } finally {
    await check.close();
  }
}

function runImporter(kind: string, file: string): Promise<Omit<ImportRun, 'server'>> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = [
      '-f',
      '%M',
      process.execPath,
      bin,
      'import',
      kind,
      file,
      '--url',
      url,
      '--token',
      token,
      '--json',
      '--no-progress',
      '--force',
    ];
    const importer = spawn('/usr/bin/time', args);
    let stdout = '';
    let stderr = '';
    importer.stdout.on('data', (chunk) => (stdout += chunk));
    importer.stderr.on('data', (chunk) => (stderr += chunk));
    importer.once('exit', (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`import ${kind} exited ${code}: ${stderr}`));
      const peakKb = Number(stderr.trim().split('\n').at(-1));
      resolve({ summary: JSON.parse(stdout), seconds: (performance.now() - started) / 1000, peakMb: Math.round(peakKb / 1024) });
    });
  });
}

const print = (label: string, r: ImportRun, target: number) =>
  report(
    label,
    Math.round(r.summary.total / r.seconds),
    'rows/s',
    `${r.seconds.toFixed(1)} s (server ${r.server.seconds.toFixed(1)} s, ${Math.round(r.summary.total / r.server.seconds)} rows/s; processing ${r.server.processing.toFixed(1)} s, its CPU ${r.server.cpu.toFixed(1)} s); created ${r.summary.created}, existing ${r.summary.existing}, failed ${r.summary.failed}; importer peak RSS ${r.peakMb} MB, server ${serverPeakMb()} MB`,
    { atLeast: target },
  );

try {
  const usersFile = join(dir, 'users.csv');
  const users = Array.from({ length: USERS }, (_, i) => `u${i}@example.com,User ${i},user,E${i}`);
  writeFileSync(usersFile, `email,name,role,employee_id\n${users.join('\n')}\n`);
  const usersRun = await runImport('users', usersFile);
  print(`import users: ${USERS} rows`, usersRun, 10_000);
  report('import users: importer peak RSS', usersRun.peakMb, 'MB', '', { below: 250 });
  report('import users: server peak RSS', serverPeakMb(), 'MB', '', { below: 250 });

  if (WITH_ASSIGNMENTS) {
    const assignmentsFile = join(dir, 'assignments.csv');
    const learners = ASSIGNMENTS / CONTENT_ITEMS;
    const lines: string[] = [];
    for (let u = 0; u < learners; u++) for (const item of content) lines.push(`u${u}@example.com,${item},2027-06-30`);
    writeFileSync(assignmentsFile, `user_email,content_item_id,due_date\n${lines.join('\n')}\n`);
    lines.length = 0;
    print(`import assignments by email: ${ASSIGNMENTS} rows`, await runImport('assignments', assignmentsFile), 10_000);
    report('import assignments: server peak RSS', serverPeakMb(), 'MB', '', { below: 300 });
  }

  /** Imports one user per row into `into` (round robin); counts each event's seats afterwards. */
  const importEnrollments = async (label: string, into: string[], expected: { enrolled: number; waitlisted: number }) => {
    const file = join(dir, `enrollments-${into === events ? 'roomy' : 'tight'}.csv`);
    const rows: string[] = [];
    for (let i = 0; i < ENROLLMENTS; i++) rows.push(`u${i}@example.com,${into[i % EVENTS]},in_person,true`);
    writeFileSync(file, `user_email,event_id,attendance_method,accept_waitlist\n${rows.join('\n')}\n`);
    const statementsBefore = await statementsSoFar();
    const run = await runImport('enrollments', file);
    const statementsAfter = await statementsSoFar();
    print(`import enrollments (${label}): ${ENROLLMENTS} rows, ${EVENTS} events`, run, 5_000);
    if (statementsBefore !== undefined && statementsAfter !== undefined) {
      const perRow = (statementsAfter - statementsBefore) / ENROLLMENTS;
      report(`import enrollments (${label}): statements per row`, Number(perRow.toFixed(2)), 'statements', '', { reported: true });
    }
    const check = createLectern({ storage: await database.open() });
    let exact = 0;
    for (const id of into) {
      const event = (await check.scheduledEvents.get(check.context(), id)) as unknown as {
        enrollment_counts: { in_person: { enrolled: number; waitlisted: number } };
      };
      const counts = event.enrollment_counts.in_person;
      if (counts.enrolled === expected.enrolled && counts.waitlisted === expected.waitlisted) exact++;
    }
    await check.close();
    report(`import enrollments (${label}): events with the exact seat count`, exact, `of ${EVENTS}`, '', { reported: true });
  };
  // every event gets PER_EVENT requests: seats first, then the wait list, then `waitlist_full`
  const seatsOf = (seats: number, waitList: number) => ({
    enrolled: Math.min(PER_EVENT, seats),
    waitlisted: Math.min(Math.max(PER_EVENT - seats, 0), waitList),
  });
  await importEnrollments('none refused', events, seatsOf(SEATS, WAITLIST));
  await importEnrollments('11 % refused', tightEvents, seatsOf(TIGHT_SEATS, TIGHT_WAITLIST));
} finally {
  await stopBenchServer(child);
  await database.dispose();
}
