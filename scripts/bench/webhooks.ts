/**
 * Webhook delivery benchmark (not a test): the real engine, in-process over a SQLite file, sending
 * to a receiver in a child process on 127.0.0.1 that verifies every signature.
 *
 *   npm run bench -- webhooks
 *   node --conditions=source --import tsx scripts/bench/webhooks.ts [--events 10000] [--subscriptions 1]
 *
 * 1. Throughput: after a warm-up of 1 000 events, a burst of events recorded as a domain service
 *    would, until every delivery has arrived; deliveries per second.
 * 2. Latency: events one at a time, spaced out, from the start of the recording transaction to the
 *    arrival of the first attempt at the receiver; p50/p95/p99.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createLectern, verifyWebhook, type Lectern } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { report } from './_report.ts';

const { values: options } = parseArgs({
  options: {
    receiver: { type: 'boolean', default: false },
    events: { type: 'string', default: '10000' },
    'latency-events': { type: 'string', default: '300' },
    subscriptions: { type: 'string', default: '1' },
    'time-limit': { type: 'string', default: '120' },
  },
});

/** Arrival of one delivery at the receiver. */
interface Arrival {
  id: string;
  path: string;
  at: number;
}

const wallClock = () => performance.timeOrigin + performance.now();

/** Receiver mode: verify, answer 204, report arrivals to the parent in small batches. */
function runReceiver(): void {
  const secrets = new Map<string, string>();
  let batch: Arrival[] = [];
  let failures = 0;
  process.on('message', (message: { path: string; secret: string }) => secrets.set(message.path, message.secret));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = wallClock();
      try {
        verifyWebhook(secrets.get(request.url!)!, request.headers, Buffer.concat(chunks));
      } catch {
        failures++;
        response.writeHead(400).end();
        return;
      }
      response.writeHead(204).end();
      batch.push({ id: String(request.headers['webhook-id']), path: request.url!, at });
    });
  });
  setInterval(() => {
    if (batch.length === 0 && failures === 0) return;
    process.send!({ arrivals: batch, failures });
    batch = [];
    failures = 0;
  }, 5).unref();
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  process.on('disconnect', () => process.exit(0));
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const eventCount = Number(options.events);
  const latencyCount = Number(options['latency-events']);
  const subscriptionCount = Number(options.subscriptions);
  const deadline = Date.now() + Number(options['time-limit']) * 1000;

  const child = fork(new URL(import.meta.url).pathname, ['--receiver'], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const arrivals = new Map<string, Arrival[]>();
  let arrived = 0;
  let verificationFailures = 0;
  const port = await new Promise<number>((resolve) =>
    child.on('message', (message: { port?: number; arrivals?: Arrival[]; failures?: number }) => {
      if (message.port) resolve(message.port);
      verificationFailures += message.failures ?? 0;
      for (const arrival of message.arrivals ?? []) {
        arrived++;
        const list = arrivals.get(arrival.id) ?? [];
        list.push(arrival);
        arrivals.set(arrival.id, list);
      }
    }),
  );

  const database = await benchDatabase('webhooks');
  const lectern: Lectern = createLectern({
    storage: await database.open(),
    config: { webhooks: { allowPrivateTargets: true } },
  });
  lectern.start();
  for (let i = 0; i < subscriptionCount; i++) {
    const path = `/hook-${i}`;
    const hook = await lectern.webhooks.create(lectern.context(), { url: `http://127.0.0.1:${port}${path}`, events: ['article.*'] });
    child.send({ path, secret: hook.secret });
  }
  const object = { public_id: '7d3c1f9e-1b2a-4c5d-8e9f-0a1b2c3d4e5f', name: 'Benchmark article', content_type: 'article' };
  const waitForArrivals = async (expected: number) => {
    while (arrived < expected) {
      if (Date.now() > deadline) throw new Error(`time limit reached with ${arrived} of ${expected} deliveries`);
      await sleep(1);
    }
  };

  // warm-up: connections, statement cache and the JIT, which needs thousands of rounds of the
  // delivery path before it runs at speed; what a long-running server does all day
  for (let i = 0; i < 1000; i += 50) {
    await lectern.storage.transaction((tx) =>
      lectern.outbox.record(tx, ...Array.from({ length: 50 }, () => ({ type: 'article.updated', object }))),
    );
  }
  await waitForArrivals(1000 * subscriptionCount);

  // 1. throughput: events recorded in transactions of 50, as fast as the database takes them
  const before = arrived;
  const started = wallClock();
  for (let i = 0; i < eventCount; i += 50) {
    const size = Math.min(50, eventCount - i);
    await lectern.storage.transaction((tx) =>
      lectern.outbox.record(tx, ...Array.from({ length: size }, () => ({ type: 'article.updated', object }))),
    );
  }
  const recordedIn = wallClock() - started;
  await waitForArrivals(before + eventCount * subscriptionCount);
  const elapsed = wallClock() - started;
  const deliveries = eventCount * subscriptionCount;

  // 2. latency: one event at a time, 10 ms apart, so the engine is idle when each arrives
  const latencyBefore = arrived;
  const startedAt = new Map<string, number>();
  for (let i = 0; i < latencyCount; i++) {
    const t0 = wallClock();
    const [event] = await lectern.storage.transaction((tx) => lectern.outbox.record(tx, { type: 'article.updated', object }));
    startedAt.set(event!.id, t0);
    await sleep(10);
  }
  await waitForArrivals(latencyBefore + latencyCount * subscriptionCount);
  const delays = [...startedAt].map(([id, t0]) => Math.min(...arrivals.get(id)!.map((a) => a.at)) - t0).sort((a, b) => a - b);
  const duplicates = [...arrivals.values()].filter((list) => list.length > subscriptionCount).length;

  await lectern.close();
  child.disconnect();
  await database.dispose();

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `webhook delivery benchmark (node ${process.version}, ${subscriptionCount} subscription(s), receiver verifies every signature)`,
  );
  report('deliveries/s', Math.round(deliveries / (elapsed / 1000)), 'per s', `${deliveries} deliveries in ${ms(elapsed)}`, {
    atLeast: 3000,
  });
  report(`recording ${eventCount} events (transactions of 50)`, recordedIn, 'ms');
  report('change → first attempt p50', percentile(delays, 50), 'ms', `over ${latencyCount} events`, { below: 10 });
  report('change → first attempt p95', percentile(delays, 95), 'ms');
  report('change → first attempt max', delays.at(-1)!, 'ms');
  report('signature failures', verificationFailures, '');
  report('events delivered more than once', duplicates, '');
}

if (options.receiver) runReceiver();
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
