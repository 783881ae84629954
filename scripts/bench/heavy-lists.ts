/**
 * A plain GET while fifty connections search 325 000 users a page of 100 at a time: what one
 * person's request costs while someone else runs expensive lists. Searches past the admission
 * queue are answered 503 at once (middleware/admission.ts); the figure is the GET's p99.
 */
import { load, pinSelf, reportLoad, startBenchServer, stopBenchServer } from './_load.ts';
import { report } from './_report.ts';
import { usersDatabase } from './_users-data.ts';

const USERS = Number(process.env.BENCH_USERS ?? 325_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const { database, token, ids } = await usersDatabase('heavy_lists', USERS);

pinSelf();
const server = await startBenchServer(database.target);
try {
  const byId = ids.map((id) => `/api/v2/users/${id}/`);
  // terms that match many users, so each page reads far into the table
  const searches = ['ser 1', 'user 2', '@example', 'ser 3', 'user 9'].map(
    (term) => `/api/v2/users/?search=${encodeURIComponent(term)}&page_size=100`,
  );
  await load(server.url, byId, { token, seconds: 1, connections: 1 }); // warm-up
  const quiet = await load(server.url, byId, { token, seconds: 3, connections: 1 });
  reportLoad('GET /users/<id> alone, one connection', quiet, 'latency');
  const [heavy, plain] = await Promise.all([
    load(server.url, searches, { token, seconds: SECONDS, connections: 50 }),
    load(server.url, byId, { token, seconds: SECONDS, connections: 1 }),
  ]);
  report(
    'GET /users/<id> p99 while 50 connections search',
    plain.p99,
    'ms',
    `p50 ${plain.p50.toFixed(2)} ms, ${plain.perSecond} req/s${plain.errors ? `, ERRORS ${plain.errors}` : ''}`,
    { below: 100 },
  );
  report(
    'searches answered (page_size=100, 50 connections)',
    Math.round((heavy.requests - heavy.errors) / SECONDS),
    'req/s',
    `${heavy.errors} of ${heavy.requests} refused with 503 (admission), p50 ${heavy.p50.toFixed(1)} ms`,
  );
} finally {
  await stopBenchServer(server.child);
  await database.dispose();
}
