/**
 * Whether a few client addresses can lock everyone else out. Two floods, each from other loopback
 * addresses (127.0.0.2 on), each holding as many sockets as the server lets it and opening a new
 * one whenever one closes:
 *   - slow headers: 1 000 sockets over 12 addresses, each sending a request line and one header
 *     and then nothing;
 *   - idle: 10 000 sockets over 20 addresses that send nothing at all.
 * Meanwhile a normal client (127.0.0.1) sends 150 GETs by id, each on a new connection, one after
 * another. Reported: the share of its requests answered 200 (target ≥ 99 %) and their p99.
 *
 * BENCH_HOSTILE_REQUESTS changes the 150.
 */
import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { createLectern } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const REQUESTS = Number(process.env.BENCH_HOSTILE_REQUESTS ?? 150);

const database = await benchDatabase('hostile');
const seeding = createLectern({ storage: await database.open() });
const admin = (await seeding.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
const user = await seeding.users.create(seeding.context(), { email: 'learner@example.com', name: 'Learner' });
await seeding.close();
const { url, child } = await startBenchServer(database.target, ['--log-level', 'error']);
const { hostname, port } = new URL(url);

interface Flood {
  stop(): Promise<void>;
  /** sockets open now */
  open(): number;
}

/** Keeps `perAddress` sockets open from each address, reconnecting as the server closes them. */
function flood(addresses: string[], perAddress: number, opening: string): Flood {
  const sockets = new Set<Socket>();
  let stopped = false;
  const openOne = (from: string) => {
    if (stopped) return;
    const socket = connect({ host: hostname, port: Number(port), localAddress: from });
    sockets.add(socket);
    socket.on('connect', () => opening && socket.write(opening));
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    // a new one a little later: a closed socket's replacement must not spin on a full server
    socket.on('close', () => {
      sockets.delete(socket);
      setTimeout(() => openOne(from), 20);
    });
  };
  for (const from of addresses) for (let i = 0; i < perAddress; i++) openOne(from);
  return {
    open: () => sockets.size,
    async stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 500));
    },
  };
}

/** The normal client: GETs by id, each on a new connection; answered share and latencies. */
async function normalClient(): Promise<{ ok: number; p99: number }> {
  const latencies: number[] = [];
  let ok = 0;
  for (let i = 0; i < REQUESTS; i++) {
    // a fresh agent per request: a new connection each time, as a browser's first visit has
    const agent = new Agent({ pipelining: 0, connectTimeout: 5000, headersTimeout: 10_000 });
    const started = performance.now();
    try {
      const response = await request(`${url}/api/v2/users/${user.public_id}/`, {
        headers: { authorization: `Bearer ${admin}` },
        dispatcher: agent,
      });
      await response.body.text();
      if (response.statusCode === 200) ok++;
    } catch {
      // closed or reset by a full server: not answered
    }
    latencies.push(performance.now() - started);
    await agent.close().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  latencies.sort((a, b) => a - b);
  return { ok, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

const addresses = (count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${i + 2}`);
for (const [label, make] of [
  ['slow headers, 1 000 sockets over 12 addresses', () => flood(addresses(12), 84, 'GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\n')],
  ['idle, 10 000 sockets over 20 addresses', () => flood(addresses(20), 500, '')],
] as const) {
  const attack = make();
  // let the flood fill the server before the normal client starts
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const held = attack.open();
  const result = await normalClient();
  await attack.stop();
  report(
    `normal client under ${label}`,
    (result.ok / REQUESTS) * 100,
    '% answered',
    `p99 ${result.p99.toFixed(1)} ms, flood sockets open ${held}`,
    {
      atLeast: 99,
    },
  );
}
await stopBenchServer(child);
await database.dispose();
