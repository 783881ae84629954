/**
 * SCIM provisioning as an identity provider's first sync does it: 1 000 users created one POST
 * /scim/v2/Users each, 4 requests in flight (Okta and Entra ID keep a handful open per app), on an
 * empty database. The target is the issue's: the 1 000 in under 10 s on SQLite. The server's CPU
 * seconds per user are reported too: unlike the wall time, they barely move with what else the
 * machine is doing.
 */
import { createLectern } from '@lectern/core';
import { Pool } from 'undici';
import { benchDatabase } from './_database.ts';
import { cpuSeconds, pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';

const USERS = Number(process.env.BENCH_SCIM_USERS ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_SCIM_IN_FLIGHT ?? 4);
const WARM_UP = 20;

const database = await benchDatabase('scim');
const storage = await database.open();
const lectern = createLectern({ storage });
const adminToken = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
await lectern.close();

pinSelf();
const server = await startBenchServer(database.target);
const pool = new Pool(server.url, { connections: IN_FLIGHT, pipelining: 1 });
try {
  const issued = await pool.request({
    method: 'POST',
    path: '/api/v2/api-tokens/',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench provisioning', scopes: ['scim:write'] }),
  });
  const token = ((await issued.body.json()) as { token: string }).token;

  /** Creates `count` users named `<prefix><i>`, IN_FLIGHT at a time: each request's milliseconds, sorted, and the failures. */
  const provision = async (prefix: string, count: number) => {
    const latencies: number[] = [];
    let next = 0;
    let errors = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const email = `${prefix}${i}@example.com`;
        const started = performance.now();
        const response = await pool.request({
          method: 'POST',
          path: '/scim/v2/Users',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
          body: JSON.stringify({
            schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
            userName: email,
            name: { givenName: 'Person', familyName: `Number ${i}` },
            emails: [{ primary: true, value: email, type: 'work' }],
            externalId: `idp-${prefix}${i}`,
            active: true,
          }),
        });
        await response.body.text();
        if (response.statusCode !== 201) errors++;
        latencies.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    latencies.sort((a, b) => a - b);
    return { latencies, errors };
  };

  await provision('warm', WARM_UP);
  const cpuBefore = cpuSeconds(server.child.pid!);
  const began = performance.now();
  const { latencies, errors } = await provision('person', USERS);
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  const detail = `${Math.round(USERS / seconds)} users/s, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms${errors ? `, ERRORS ${errors}` : ''}`;
  if (errors > 0) console.error(`scim: ${errors} creates failed`);
  report(`SCIM: ${USERS} users created, ${IN_FLIGHT} in flight`, seconds, 's', detail, { below: 10 });
  report('SCIM create: server CPU per user', (cpu * 1000) / USERS, 'ms', '', { reported: true });
} finally {
  await pool.close();
  await stopBenchServer(server.child);
  await database.dispose();
}
