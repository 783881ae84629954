/**
 * `lectern import` through the server's imports (one upload, processed by the job engine), over
 * HTTP on this machine, as a new user would run it: a 100 000-row users file, a 1 000 000-row
 * assignments file naming 20 000 of those users by email (50 content items each), and 100 000
 * enrollments into events with seats and wait lists, whose seat counts are checked afterwards.
 * Prints rows per second, the importer's peak RSS and the server's peak RSS for each.
 * BENCH_IMPORT_ROWS scales the users file (and the others with it) down for a quick look.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLectern } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const USERS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ASSIGNMENTS = USERS * 10;
const ENROLLMENTS = USERS;
const CONTENT_ITEMS = 50;
const EVENTS = 200;
const SEATS = 400;
const WAITLIST = 200;
const database = await benchDatabase('import');
const dir = database.dir;
const bin = new URL('../../dist/lectern.cjs', import.meta.url).pathname;

const storage = await database.open();
const lectern = createLectern({ storage });
const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
const ctx = lectern.context();
const content: string[] = [];
for (let i = 0; i < CONTENT_ITEMS; i++) content.push((await lectern.content.create(ctx, 'article', { name: `Course ${i}` })).public_id);
const events: string[] = [];
for (let i = 0; i < EVENTS; i++) {
  const event = await lectern.scheduledEvents.create(ctx, {
    name: `Session ${i}`,
    is_local: true,
    enrollment_limit: SEATS,
    wait_list_limit: WAITLIST,
    timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
  } as never);
  events.push(event.public_id);
}
await lectern.close();

pinSelf();
const { url, child } = await startBenchServer(database.target);
const serverPeakMb = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

interface ImportRun {
  summary: { total: number; created: number; existing: number; failed: number };
  seconds: number;
  peakMb: number;
}

/** Runs the built importer; resolves with its summary, the seconds it took and its peak RSS. */
function runImport(kind: string, file: string): Promise<ImportRun> {
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
    `${r.seconds.toFixed(1)} s; created ${r.summary.created}, existing ${r.summary.existing}, failed ${r.summary.failed}; importer peak RSS ${r.peakMb} MB, server ${serverPeakMb()} MB`,
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

  const assignmentsFile = join(dir, 'assignments.csv');
  const learners = ASSIGNMENTS / CONTENT_ITEMS;
  const lines: string[] = [];
  for (let u = 0; u < learners; u++) for (const item of content) lines.push(`u${u}@example.com,${item},2027-06-30`);
  writeFileSync(assignmentsFile, `user_email,content_item_id,due_date\n${lines.join('\n')}\n`);
  lines.length = 0;
  print(`import assignments by email: ${ASSIGNMENTS} rows`, await runImport('assignments', assignmentsFile), 10_000);
  report('import assignments: server peak RSS', serverPeakMb(), 'MB', '', { below: 300 });

  const enrollmentsFile = join(dir, 'enrollments.csv');
  const rows: string[] = [];
  for (let i = 0; i < ENROLLMENTS; i++) rows.push(`u${i}@example.com,${events[i % EVENTS]},in_person,true`);
  writeFileSync(enrollmentsFile, `user_email,event_id,attendance_method,accept_waitlist\n${rows.join('\n')}\n`);
  const enrollmentsRun = await runImport('enrollments', enrollmentsFile);
  print(`import enrollments: ${ENROLLMENTS} rows, ${EVENTS} events`, enrollmentsRun, 3_000);
  // every event got ENROLLMENTS / EVENTS requests: seats first, then the wait list, then `waitlist_full`
  const perEvent = ENROLLMENTS / EVENTS;
  const check = createLectern({ storage: await database.open() });
  let exact = 0;
  for (const id of events) {
    const event = (await check.scheduledEvents.get(check.context(), id)) as unknown as {
      enrollment_counts: { in_person: { enrolled: number; waitlisted: number } };
    };
    const counts = event.enrollment_counts.in_person;
    if (counts.enrolled === Math.min(perEvent, SEATS) && counts.waitlisted === Math.min(Math.max(perEvent - SEATS, 0), WAITLIST)) exact++;
  }
  await check.close();
  report('import enrollments: events with the exact seat count', exact, `of ${EVENTS}`, '', { reported: true });
} finally {
  await stopBenchServer(child);
  await database.dispose();
}
