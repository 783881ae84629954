/**
 * `lectern import` at the default rate limit (600 requests a minute per token): a 100 000-row
 * users file, then a 100 000-row assignments file naming 20 000 of those users by email (5 content
 * items each), against a local server. Prints each run's time, rows per second and the importer's
 * peak memory. BENCH_IMPORT_ROWS scales both files down for a quick look.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLectern } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ITEMS_PER_USER = 5;
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT ?? '600';
const database = await benchDatabase('import');
const dir = database.dir;
const bin = new URL('../../dist/lectern.cjs', import.meta.url).pathname;

const storage = await database.open();
const lectern = createLectern({ storage });
const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
const ctx = lectern.context();
const content: string[] = [];
for (let i = 0; i < ITEMS_PER_USER; i++) content.push((await lectern.content.create(ctx, 'article', { name: `Course ${i}` })).public_id);
await lectern.close();

pinSelf();
const { url, child } = await startBenchServer(database.target, ['--rate-limit', RATE_LIMIT]);

interface ImportRun {
  summary: { total: number; created: number; existing: number; failed: number };
  seconds: number;
  peakMb: number;
}

/** Runs the built importer; resolves with its summary, the seconds it took and its peak RSS. */
function runImport(kind: string, file: string): Promise<ImportRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const importer = spawn('/usr/bin/time', [
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
    ]);
    let stdout = '';
    let stderr = '';
    importer.stdout.on('data', (chunk) => (stdout += chunk));
    importer.stderr.on('data', (chunk) => (stderr += chunk));
    importer.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`import ${kind} exited ${code}: ${stderr}`));
      const peakKb = Number(stderr.trim().split('\n').at(-1));
      resolve({ summary: JSON.parse(stdout), seconds: (performance.now() - started) / 1000, peakMb: Math.round(peakKb / 1024) });
    });
  });
}

const print = (label: string, r: ImportRun) =>
  report(
    label,
    Math.round(r.summary.total / r.seconds),
    'rows/s',
    `${r.seconds.toFixed(1)} s; created ${r.summary.created}, existing ${r.summary.existing}, failed ${r.summary.failed}; importer peak RSS ${r.peakMb} MB`,
  );

try {
  console.log(`rate limit ${RATE_LIMIT} requests/minute per token`);
  const usersFile = join(dir, 'users.csv');
  const users = Array.from({ length: ROWS }, (_, i) => `u${i}@example.com,User ${i},user,E${i}`);
  writeFileSync(usersFile, `email,name,role,employee_id\n${users.join('\n')}\n`);
  print(`users: ${ROWS} rows`, await runImport('users', usersFile));

  const assignmentsFile = join(dir, 'assignments.csv');
  const learners = ROWS / ITEMS_PER_USER;
  const lines: string[] = [];
  for (let u = 0; u < learners; u++) for (const item of content) lines.push(`u${u}@example.com,${item},2027-06-30`);
  writeFileSync(assignmentsFile, `user_email,content_item_id,due_date\n${lines.join('\n')}\n`);
  print(`assignments: ${lines.length} rows, ${learners} users`, await runImport('assignments', assignmentsFile));
  print(`assignments again (all existing)`, await runImport('assignments', assignmentsFile));
} finally {
  await stopBenchServer(child);
  await database.dispose();
}
