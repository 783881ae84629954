/**
 * Assignments at scale, on the cached data set of `_assignments-data.ts` (1 000 000 assignments,
 * 50 000 users, 1 000 content items, 20 groups of 500 members): measures over HTTP, one connection
 * at a time, the insights, every list filter alone and in pairs, and saved-report results, each
 * against its target. `BENCH_ONLY` (a regular expression) measures only the lines whose label it
 * matches, e.g. `BENCH_ONLY='created|report ilike'`, to compare two builds line by line.
 */
import { ASSIGNMENTS, seedAssignments } from './_assignments-data.ts';
import { seededDatabase } from './_database.ts';
import { load, pinSelf, reportLoad, startBenchServer, stopBenchServer } from './_load.ts';
import type { Target } from './_report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const keep = process.env.BENCH_KEEP === '1';
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;

const { database, meta } = await seededDatabase(
  'assignments',
  new URL('./_assignments-data.ts', import.meta.url).pathname,
  { assignments: ASSIGNMENTS },
  seedAssignments,
);
const { token, probe } = meta;
const group = { public_id: meta.group };

pinSelf();
const server = await startBenchServer(database.target);
try {
  // latency, not throughput: one request at a time
  const options = { token, seconds: SECONDS, connections: 1 };
  const run = async (label: string, path: string | (() => Promise<string>), target?: Target) => {
    if (only && !only.test(label)) return;
    if (typeof path !== 'string') path = await path();
    await load(server.url, [path], { ...options, seconds: 0.5 });
    reportLoad(label, await load(server.url, [path], options), 'latency', target);
  };
  await run('insight completion (all 1 M)', '/api/v2/insights/assignments/completion/', { below: 2 });
  await run('insight completion ?content_item_id', `/api/v2/insights/assignments/completion/?content_item_id=${probe.content}`);
  await run('insight completion ?user_id', `/api/v2/insights/assignments/completion/?user_id=${probe.user}`);
  await run('insight completion ?group_id (500 members)', `/api/v2/insights/assignments/completion/?group_id=${group.public_id}`, {
    below: 10,
  });
  await run('insight overdue (all)', '/api/v2/insights/assignments/overdue/', { below: 2 });
  await run('insight ratings (all)', '/api/v2/insights/assignments/ratings/', { below: 2 });
  // every filter the specification names, alone (with the default order and newest first), then
  // in pairs; each page comes with its exact meta.total_count
  const filters: Array<[string, string]> = [
    ['no filter', ''],
    ['state=in_progress', 'state=in_progress'],
    ['user=<id>', `user=${probe.user}`],
    ['content_item=<id>', `content_item=${probe.content}`],
    ['content_type=video', 'content_type=video'],
    ['is_overdue=true', 'is_overdue=true'],
    ['due_date__gte (last 5 %)', 'due_date__gte=2027-01-01'],
    ['due_date__lte (first 5 %)', 'due_date__lte=2025-02-10'],
    ['created__gte (last 5 %)', 'created__gte=2025-11-26T00:00:00Z'],
    ['created__lte (first 5 %)', 'created__lte=2025-01-18T00:00:00Z'],
  ];
  for (const [label, query] of filters) {
    await run(`GET /assignments/?${label}`, `/api/v2/assignments/?${query}`, { below: 10 });
    await run(`GET /assignments/?${label}, -created`, `/api/v2/assignments/?${query}${query ? '&' : ''}ordering=-created`, { below: 10 });
  }
  const pairs: Array<[string, string]> = [
    ['state=in_progress&content_type=video', 'state=in_progress&content_type=video'],
    ['user=<id>&state=completed', `user=${probe.user}&state=completed`],
    ['content_item=<id>&state=completed', `content_item=${probe.content}&state=completed`],
    ['content_item=<id>&is_overdue=true', `content_item=${probe.content}&is_overdue=true`],
    ['state=completed&created__gte', 'state=completed&created__gte=2025-11-26T00:00:00Z'],
    ['state=not_started&due_date__lte', 'state=not_started&due_date__lte=2025-02-10'],
    ['content_type=guide&is_overdue=true', 'content_type=guide&is_overdue=true'],
  ];
  for (const [label, query] of pairs) await run(`GET /assignments/?${label}`, `/api/v2/assignments/?${query}`, { below: 25 });
  // saved reports run the list query with the expression as one more condition
  const report = (expression: string) => async () => {
    const response = await fetch(`${server.url}/api/v2/saved-reports/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: expression, resource: 'assignments', expression }),
    });
    return `/api/v2/saved-reports/${((await response.json()) as { public_id: string }).public_id}/results/`;
  };
  const fast = { below: 50 };
  await run('report eq(user.email,…)', report(`eq(user.email,${probe.email})`), fast);
  await run(
    'report ilike(user.email,…),eq(state,completed)',
    report(`ilike(user.email,${probe.email.toUpperCase()}),eq(state,completed)`),
    fast,
  );
  await run(
    'report in(content_item.content_type,(video,guide)),state=in_progress',
    report('in(content_item.content_type,(video,guide)),state=in_progress'),
    fast,
  );
  await run('report ilike(user.email,*@example.com) (every row matches)', report('ilike(user.email,*@example.com)'), fast);
} finally {
  await stopBenchServer(server.child);
  if (keep) console.log(`kept ${database.target}`);
  else await database.dispose();
}
