/**
 * What the audit log costs a write: the same writes on two servers in this process, one recording
 * entries and one with recording turned off (config `audit.enabled`, which exists for this
 * measurement only), each on its own fresh database. Measured in process, without HTTP, so the
 * difference is not diluted by the request's other work: a 500-user bulk job from submission to
 * completed, and a single user PATCH. What is compared is this process's CPU time (user and
 * system), which other work on a shared machine barely moves, where wall time moved by half from
 * run to run; wall time is shown beside it. The runs alternate between the two servers so that
 * drift falls on both alike; each figure is the median of its runs.
 */
import { createLectern, type Lectern } from '@lectern/core';
import { benchDatabase, type BenchDatabase } from './_database.ts';
import { report } from './_report.ts';

const BULK_RUNS = Number(process.env.BENCH_AUDIT_BULK_RUNS ?? 5);
const PATCH_ROUNDS = Number(process.env.BENCH_AUDIT_PATCH_ROUNDS ?? 7);
const PATCHES_PER_ROUND = Number(process.env.BENCH_AUDIT_PATCHES ?? 500);

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
