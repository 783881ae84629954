/**
 * The HTTP hot path on a database of 100 000 users: an authenticated GET by id, a filtered list
 * page with its COUNT, and a search page. Reference points measured on this machine (toolchain
 * notes): bare node:http + better-sqlite3 GET-by-UUID ≈ 8 000 req/s, with a token lookup ≈ 6 000.
 */
import { createLectern, randomIds } from '@lectern/core';
import { benchDatabase } from './_database.ts';
import { load, pinSelf, reportLoad, startBenchServer, stopBenchServer } from './_load.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const database = await benchDatabase('http');
const storage = await database.open();
const lectern = createLectern({ storage });
const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
const seededAt = Date.now();
const ids: string[] = [];
for (let start = 0; start < USERS; start += 5_000) {
  await storage.db.transaction().execute(async (trx) => {
    const rows = [];
    for (let i = start; i < Math.min(USERS, start + 5_000); i++) {
      const publicId = randomIds.uuid();
      if (i % 97 === 0) ids.push(publicId);
      const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      rows.push({
        public_id: publicId,
        email: `user${i}@example.com`,
        email_lower: `user${i}@example.com`,
        name: `User ${i}`,
        name_folded: `user ${i}`,
        role: i % 10 === 0 ? 'organizer' : 'user',
        employee_id: `E${i}`,
        is_active: i % 7 === 0 ? 0 : 1,
        manager_id: null,
        date_joined: at,
        modified: at,
      });
    }
    for (let j = 0; j < rows.length; j += 500)
      await trx
        .insertInto('users')
        .values(rows.slice(j, j + 500))
        .execute();
  });
}
await lectern.close();
console.log(`seeded ${USERS} users in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);

pinSelf();
const server = await startBenchServer(database.target);
try {
  const options = { token, seconds: SECONDS, connections: 16 };
  await load(server.url, ['/api/v2/users/?page_size=1'], { ...options, seconds: 1 }); // warm-up
  const throughput = async (label: string, paths: string[]) => reportLoad(label, await load(server.url, paths, options), 'throughput');
  await throughput(
    'GET /users/<id>',
    ids.map((id) => `/api/v2/users/${id}/`),
  );
  await throughput('GET /users/?role=organizer&is_active=true (page+count)', [
    '/api/v2/users/?role=organizer&is_active=true&ordering=-date_joined',
  ]);
  await throughput('GET /users/?search=user 4242', ['/api/v2/users/?search=user%204242']);
  for (const term of ['user 4242', 'ser 77', '@example']) {
    const path = `/api/v2/users/?search=${encodeURIComponent(term)}`;
    reportLoad(`GET /users/?search=${term} (one connection)`, await load(server.url, [path], { ...options, connections: 1 }), 'latency');
  }
  await throughput('GET /users/?page=50&page_size=100 (name order)', ['/api/v2/users/?page=50&page_size=100&ordering=name']);
} finally {
  await stopBenchServer(server.child);
  await database.dispose();
}
