/**
 * The HTTP hot path on a database of 100 000 users: an authenticated GET by id, a filtered list
 * page with its COUNT, and a search page. Reference points measured on this machine (toolchain
 * notes): bare node:http + better-sqlite3 GET-by-UUID ≈ 8 000 req/s, with a token lookup ≈ 6 000.
 */
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createLectern, randomIds } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';
import { format, load, pinSelf, startBenchServer } from './_load.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-'));
const dbFile = join(dir, 'bench.db');

const storage = await openSqliteStorage({ file: dbFile });
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
const server = await startBenchServer(dbFile);
try {
  const options = { token, seconds: SECONDS, connections: 16 };
  await load(server.url, ['/api/v2/users/?page_size=1'], { ...options, seconds: 1 }); // warm-up
  console.log(
    format(
      'GET /users/<id>',
      await load(
        server.url,
        ids.map((id) => `/api/v2/users/${id}/`),
        options,
      ),
    ),
  );
  console.log(
    format(
      'GET /users/?role=organizer&is_active=true (page+count)',
      await load(server.url, ['/api/v2/users/?role=organizer&is_active=true&ordering=-date_joined'], options),
    ),
  );
  console.log(format('GET /users/?search=user 4242', await load(server.url, ['/api/v2/users/?search=user%204242'], options)));
  console.log(
    format(
      'GET /users/?page=50&page_size=100 (name order)',
      await load(server.url, ['/api/v2/users/?page=50&page_size=100&ordering=name'], options),
    ),
  );
} finally {
  server.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
