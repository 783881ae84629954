/**
 * What the audit log costs a write: the same writes on two servers in this process, one recording
 * entries and one with recording turned off (config `audit.enabled`, which exists for this
 * measurement only), each on its own fresh database. Measured in process, without HTTP, so the
 * difference is not diluted by the request's other work: a 500-user bulk job from submission to
 * completed, and a single user PATCH; then a PATCH over HTTP, each server in its own process
 * (`_audit-server.ts`), whose CPU time is read from /proc. What is compared is this process's CPU time (user and
 * system), which other work on a shared machine barely moves, where wall time moved by half from
 * run to run; wall time is shown beside it. The runs alternate between the two servers so that
 * drift falls on both alike; each figure is the median of its runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { createLectern, type Lectern } from '@lectern/core';
import { benchDatabase, type BenchDatabase } from './_database.ts';
import { cpuSeconds } from './_load.ts';
import { report } from './_report.ts';

const BULK_RUNS = Number(process.env.BENCH_AUDIT_BULK_RUNS ?? 5);
const PATCH_ROUNDS = Number(process.env.BENCH_AUDIT_PATCH_ROUNDS ?? 7);
const PATCHES_PER_ROUND = Number(process.env.BENCH_AUDIT_PATCHES ?? 500);
const HTTP_PATCHES_PER_ROUND = Number(process.env.BENCH_AUDIT_HTTP_PATCHES ?? 2000);

interface Side {
  name: 'with audit' | 'without audit';
  database: BenchDatabase;
  lectern: Lectern;
  bulkMs: number[];
  bulkWallMs: number[];
  patchUs: number[];
  patchWallUs: number[];
  userId: string;
}

async function side(name: Side['name'], enabled: boolean): Promise<Side> {
  const database = await benchDatabase(enabled ? 'audit_on' : 'audit_off');
  const lectern = createLectern({ storage: await database.open(), config: { audit: { enabled } } });
  await lectern.start();
  const user = await lectern.users.create(lectern.context(), { email: `patched-${name.replace(' ', '-')}@example.com`, name: 'A' });
  return { name, database, lectern, bulkMs: [], bulkWallMs: [], patchUs: [], patchWallUs: [], userId: user.public_id };
}

/** CPU time of this process, user and system, in ms */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function bulkRun(s: Side, run: number): Promise<void> {
  const users = Array.from({ length: 500 }, (_, i) => ({ email: `bulk-${run}-${i}@example.com`, name: `Bulk ${run} ${i}` }));
  const ctx = s.lectern.context();
  const started = performance.now();
  const cpu = cpuMs();
  const job = await s.lectern.users.bulk.submit(ctx, { users });
  await s.lectern.jobs.idle();
  s.bulkMs.push(cpuMs() - cpu);
  s.bulkWallMs.push(performance.now() - started);
  const done = await s.lectern.users.bulk.get(ctx, job.id);
  if (done.status !== 'completed' || done.succeeded !== 500) console.error(`${s.name}: bulk job ${done.status}, ${done.succeeded} of 500`);
}

async function patchRound(s: Side, round: number): Promise<void> {
  const ctx = s.lectern.context();
  const started = performance.now();
  const cpu = cpuMs();
  // every PATCH changes the name, so every one is a real update with its entry and field diff
  for (let i = 0; i < PATCHES_PER_ROUND; i++) await s.lectern.users.update(ctx, s.userId, { name: `Name ${round}-${i}` });
  s.patchUs.push(((cpuMs() - cpu) * 1000) / PATCHES_PER_ROUND);
  s.patchWallUs.push(((performance.now() - started) * 1000) / PATCHES_PER_ROUND);
}

const on = await side('with audit', true);
const off = await side('without audit', false);
try {
  // warm-up: statement caches, JIT
  await bulkRun(off, -1);
  await bulkRun(on, -1);
  on.bulkMs.length = off.bulkMs.length = on.bulkWallMs.length = off.bulkWallMs.length = 0;
  for (let run = 0; run < BULK_RUNS; run++) {
    for (const s of run % 2 ? [off, on] : [on, off]) await bulkRun(s, run);
  }
  await patchRound(off, -1);
  await patchRound(on, -1);
  on.patchUs.length = off.patchUs.length = on.patchWallUs.length = off.patchWallUs.length = 0;
  for (let round = 0; round < PATCH_ROUNDS; round++) {
    for (const s of round % 2 ? [off, on] : [on, off]) await patchRound(s, round);
  }
  const bulk = { on: median(on.bulkMs), off: median(off.bulkMs) };
  const patch = { on: median(on.patchUs), off: median(off.patchUs) };
  const list = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(', ');
  const wall = (values: number[], unit: string) => `wall ${median(values).toFixed(0)} ${unit} (${list(values, 0)})`;
  report('500-user bulk job, with audit: CPU (median)', bulk.on, 'ms', wall(on.bulkWallMs, 'ms'));
  report('500-user bulk job, without audit: CPU (median)', bulk.off, 'ms', wall(off.bulkWallMs, 'ms'));
  report('audit cost on the 500-user bulk job (CPU)', ((bulk.on - bulk.off) / bulk.off) * 100, '%', '', { below: 10 });
  report('user PATCH, with audit: CPU per PATCH (median)', patch.on, 'µs', wall(on.patchWallUs, 'µs'));
  report('user PATCH, without audit: CPU per PATCH (median)', patch.off, 'µs', wall(off.patchWallUs, 'µs'));
  report('audit cost on a user PATCH (CPU)', ((patch.on - patch.off) / patch.off) * 100, '%', '', { below: 10 });
} finally {
  for (const s of [on, off]) {
    await s.lectern.close();
    await s.database.dispose();
  }
}

interface HttpSide {
  name: string;
  child: ChildProcess;
  pool: Pool;
  token: string;
  user: string;
  database: BenchDatabase;
  cpuUs: number[];
}

async function httpSide(mode: 'on' | 'off'): Promise<HttpSide> {
  const database = await benchDatabase(`audit_http_${mode}`);
  if (database.dialect !== 'sqlite') throw new Error('the HTTP part runs on SQLite');
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', new URL('./_audit-server.ts', import.meta.url).pathname, database.target, mode],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = await new Promise<string[]>((resolve) => createInterface({ input: child.stdout! }).once('line', (l) => resolve([l])));
  const { url, token, user } = JSON.parse(line!) as { url: string; token: string; user: string };
  return {
    name: mode === 'on' ? 'with audit' : 'without audit',
    child,
    pool: new Pool(url, { connections: 1 }),
    token,
    user,
    database,
    cpuUs: [],
  };
}

async function httpRound(s: HttpSide, round: number): Promise<void> {
  const headers = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' };
  const cpu = cpuSeconds(s.child.pid!);
  for (let i = 0; i < HTTP_PATCHES_PER_ROUND; i++) {
    const response = await s.pool.request({
      method: 'PATCH',
      path: `/api/v2/users/${s.user}/`,
      headers,
      body: JSON.stringify({ name: `N ${round}-${i}` }),
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`PATCH answered ${response.statusCode}`);
  }
  s.cpuUs.push(((cpuSeconds(s.child.pid!) - cpu) * 1e6) / HTTP_PATCHES_PER_ROUND);
}

if (!process.env.LECTERN_BENCH_POSTGRES) {
  const sides = [await httpSide('on'), await httpSide('off')];
  try {
    for (const s of sides) await httpRound(s, -1);
    for (const s of sides) s.cpuUs.length = 0;
    for (let round = 0; round < PATCH_ROUNDS; round++) for (const s of round % 2 ? [...sides].reverse() : sides) await httpRound(s, round);
    const [on, off] = sides.map((s) => median(s.cpuUs)) as [number, number];
    const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    report('PATCH /users/<id> over HTTP, with audit: server CPU (median)', on, 'µs', list(sides[0]!.cpuUs));
    report('PATCH /users/<id> over HTTP, without audit: server CPU (median)', off, 'µs', list(sides[1]!.cpuUs));
    report('audit cost on a PATCH over HTTP (server CPU)', ((on - off) / off) * 100, '%', '', { below: 10 });
  } finally {
    for (const s of sides) {
      await s.pool.close();
      const exited = new Promise((resolve) => s.child.once('exit', resolve));
      s.child.kill('SIGTERM');
      await exited;
      await s.database.dispose();
    }
  }
}
