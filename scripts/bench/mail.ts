/**
 * Email notifications (docs/notifications.md), not a test:
 *
 *   npm run bench -- mail
 *   BENCH_ENROLLMENTS=10000 BENCH_ASSIGNMENTS=1000000 node --conditions=source --import tsx scripts/bench/mail.ts
 *
 * 1. Throughput: a server with an SMTP server in this process (smtp-server on loopback, counting,
 *    not parsing) as its sink; `BENCH_ENROLLMENTS` users enrolled in one event through bulk
 *    enrollment jobs (200 items each, the jobs' limit), submitted back to back; messages per second
 *    from the first submission to the last message's arrival. The server runs on core 0 and this
 *    process on core 1; `BENCH_SERVER_CORES=0,1` lets the server use both (shared with this one).
 *    Figures in docs/notifications.md ("Measuring it").
 * 2. While they go: GET /users/<id>/, `BENCH_PROBE_RATE` a second (200; 0 for one at a time as fast
 *    as they are answered), its p99.
 * 3. The reminder sweep on the assignments data set (`_assignments-data.ts`, `BENCH_ASSIGNMENTS`
 *    assignments), through core's `sweepReminders` as the worker runs it: runs one after another
 *    until the backlog of owed reminders is recorded (each at most `mail.remindersPerSweep`,
 *    marking 500 a transaction with their messages' rows), the longest of them; then a run with
 *    nothing owed, as each sweep is once the backlog is through.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Pool } from 'undici';
import { createLectern, lecternConfigSchema, sweepReminders } from '@lectern/core';
import { seedAssignments } from './_assignments-data.ts';
import { benchDatabase, seededDatabase } from './_database.ts';
import { quantile, pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';
import { seedUsers } from './_users-data.ts';

const ENROLLMENTS = Number(process.env.BENCH_ENROLLMENTS ?? 10_000);
const ASSIGNMENTS = Number(process.env.BENCH_ASSIGNMENTS ?? 1_000_000);
const JOB_ITEMS = 200;
const TIME_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT ?? 600) * 1000;
// the cores the server may use, as taskset takes them: "0" (the default) leaves core 1 to this
// process and its SMTP sink; "0,1" lets the server's threads use both, shared with this process
const SERVER_CORES = process.env.BENCH_SERVER_CORES ?? '0';
/**
 * GET-by-id requests a second while the messages go: a busy team's console and scripts, measured
 * for their latency. 0 sends them one at a time as fast as they are answered, about 4 000 a second
 * on SQLite, which then compete with the mail for the server's one core.
 */
const PROBE_RATE = Number(process.env.BENCH_PROBE_RATE ?? 200);

pinSelf();
// a socket reset while the server stops must not hide what the run measured
process.on('uncaughtException', (error) => {
  if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
});
// BENCH_ENROLLMENTS=0 measures the sweep alone, BENCH_ASSIGNMENTS=0 the burst alone
if (ENROLLMENTS > 0) await enrollmentBurst();
if (ASSIGNMENTS > 0) await reminderSweep();

async function enrollmentBurst(): Promise<void> {
  const database = await benchDatabase('mail');
  const storage = await database.open();
  const lectern = createLectern({ storage });
  const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
  await seedUsers(storage, database.dialect, Math.ceil(ENROLLMENTS * 1.35));
  const users = (
    await storage.db
      .selectFrom('users')
      .select('public_id')
      .where('is_active', '=', 1)
      .where('role', '=', 'user')
      .limit(ENROLLMENTS)
      .execute()
  ).map((row) => row.public_id);
  await lectern.close();

  let arrived = 0;
  let lastArrival = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        arrived++;
        lastArrival = performance.now();
        callback();
      });
      stream.resume();
    },
  });
  // a connection the server drops when it stops is no news
  sink.on('error', () => undefined);
  sink.listen(0, '127.0.0.1');
  await once(sink.server, 'listening');
  const smtpUrl = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  const server = await startBenchServer(
    database.target,
    ['--smtp-url', smtpUrl, '--public-url', 'https://bench.example.com'],
    SERVER_CORES,
  );
  const call = async (method: string, path: string, body?: unknown): Promise<{ public_id: string; id: string; status?: string }> => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // "the database is busy; retry shortly", as a client is told to
    if (response.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return call(method, path, body);
    }
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as { public_id: string; id: string; status?: string };
  };
  try {
    const event = await call('POST', '/api/v2/events/', {
      name: 'Bench session',
      is_local: true,
      timeslots: [{ starts_at: '2027-06-01T09:00:00Z', duration: 'PT2H' }],
    });
    const started = performance.now();
    // when the last job is done every message is queued: what is left after that is sending alone
    let jobsDone = 0;
    const submitting = (async () => {
      let last = '';
      for (let offset = 0; offset < users.length; offset += JOB_ITEMS) {
        const enrollments = users
          .slice(offset, offset + JOB_ITEMS)
          .map((user_id) => ({ user_id, event_id: event.public_id, attendance_method: 'in_person' }));
        last = (await call('POST', '/api/v2/enrollments/bulk/', { enrollments })).id;
      }
      while ((await call('GET', `/api/v2/enrollments/bulk/${last}/`)).status !== 'completed') {
        if (performance.now() - started > TIME_LIMIT_MS) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      jobsDone = performance.now();
    })();
    const latencies = await readWhile(
      server.url,
      token,
      users,
      () => arrived < users.length && performance.now() - started < TIME_LIMIT_MS,
    );
    await submitting;
    const seconds = (lastArrival - started) / 1000;
    report(
      `${users.length} enrollments → SMTP sink (server on core${SERVER_CORES.includes(',') ? 's' : ''} ${SERVER_CORES})`,
      arrived / seconds,
      'messages/s',
      `${arrived} of ${users.length} in ${seconds.toFixed(1)} s (${Math.ceil(users.length / JOB_ITEMS)} bulk jobs, all done after ${
        jobsDone ? ((jobsDone - started) / 1000).toFixed(1) : '?'
      } s)`,
      { atLeast: 500 },
    );
    const probe = PROBE_RATE > 0 ? `${PROBE_RATE}/s` : 'one at a time';
    report(
      `GET /users/<id> while they go (${probe}), p99`,
      quantile(latencies, 0.99),
      'ms',
      `${latencies.length} requests, p50 ${quantile(latencies, 0.5).toFixed(2)} ms`,
      {
        below: 50,
      },
    );
  } finally {
    await stopBenchServer(server.child);
    await new Promise<void>((resolve) => sink.close(() => resolve()));
    await database.dispose();
  }
}

/**
 * GET-by-id while `going()`; the latencies, sorted. At PROBE_RATE a second each request is sent at
 * its own time whatever the ones before it are doing, and its latency counts from that time, so a
 * server that stalls shows it in full (no request waits politely for a slow one). With
 * BENCH_PROBE_RATE=0 they go one at a time, each as soon as the last is answered.
 */
async function readWhile(url: string, token: string, ids: string[], going: () => boolean): Promise<number[]> {
  const pool = new Pool(url, { connections: PROBE_RATE > 0 ? 16 : 1 });
  const latencies: number[] = [];
  const read = async (n: number, due: number) => {
    const response = await pool.request({
      method: 'GET',
      path: `/api/v2/users/${ids[n % ids.length]}/`,
      headers: { authorization: `Bearer ${token}` },
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`GET by id answered ${response.statusCode}`);
    latencies.push(performance.now() - due);
  };
  if (PROBE_RATE > 0) {
    const started = performance.now();
    const reads: Array<Promise<void>> = [];
    for (let n = 0; going(); n++) {
      const due = started + (n * 1000) / PROBE_RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const reading = read(n, due);
      // a failure is thrown by Promise.all below, once the run is over
      reading.catch(() => undefined);
      reads.push(reading);
    }
    await Promise.all(reads);
  } else {
    for (let n = 0; going(); n++) await read(n, performance.now());
  }
  await pool.close();
  return latencies.sort((a, b) => a - b);
}

async function reminderSweep(): Promise<void> {
  const { database } = await seededDatabase(
    'assignments',
    new URL('./_assignments-data.ts', import.meta.url).pathname,
    { assignments: ASSIGNMENTS },
    seedAssignments,
  );
  const storage = await database.open();
  try {
    // a run as each server's mail worker runs it: the marking, the recipients and the messages' rows
    const config = lecternConfigSchema.parse({ mail: { smtpUrl: 'smtp://127.0.0.1:25' } });
    const run = async () => {
      const began = performance.now();
      const result = await sweepReminders({ storage, clock: { now: () => new Date() }, config });
      return { ...result, ms: performance.now() - began };
    };
    const runs = [await run()];
    while (runs.at(-1)!.spent) runs.push(await run());
    const longest = Math.max(...runs.map((r) => r.ms));
    const recorded = runs.reduce((sum, r) => sum + r.recorded, 0);
    const total = runs.reduce((sum, r) => sum + r.ms, 0);
    report(
      `reminder sweep over the backlog (${ASSIGNMENTS} assignments), longest run`,
      longest,
      'ms',
      `${recorded} reminders in ${runs.length} runs of at most ${config.mail.remindersPerSweep}, ${(total / 1000).toFixed(1)} s in all`,
      { below: 1000 },
    );
    const steady = await run();
    report(`reminder sweep, nothing owed (${ASSIGNMENTS} assignments)`, steady.ms, 'ms', `${steady.recorded} recorded`, { below: 1000 });
  } finally {
    await storage.close();
    await database.dispose();
  }
}
