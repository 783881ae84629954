/**
 * The web console as its users' browsers meet it, on the 1 M-assignment data set
 * (`_assignments-data.ts`, cached) with 50 000 more people named for searching (`_people-data.ts`):
 * 100 000 users in all. The server is `lectern serve` on its own core; Debian's Chromium
 * (playwright-core) runs each load in a fresh context (empty cache).
 *
 * - JavaScript of the first load: every script the Users page loads, signed in, from navigation
 *   to its table, gzipped at level 9 as the target is stated; brotli as served beside it.
 * - Navigation to the first table painted, on the Users and the Assignments pages:
 *   `performance.now()` (time since navigation start) in the first animation frame after the
 *   table's first data row is in the document; the median of the cold loads.
 * - The same tables reached in the app (`_console-navigation.ts`): the Overview open, a click on
 *   the side navigation's link, to the first frame with the table's first data row; the page's
 *   own code is fetched then, as on a first visit.
 * - Picker search: on a group's page, name fragments typed key by key into "People to add" at a
 *   typist's pace; from the last keystroke (its event's time stamp) to the first animation frame
 *   showing that text's options; p50 and p95 over every search.
 * - Lighthouse's accessibility and best-practices scores of the Users and an Event page (`_lighthouse.ts`).
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../test/console/chromium.ts';
import { ASSIGNMENTS, seedAssignments } from './_assignments-data.ts';
import { seededDatabase } from './_database.ts';
import { inAppNavigation } from './_console-navigation.ts';
import { auditWithLighthouse } from './_lighthouse.ts';
import { pinSelf, startBenchServer, stopBenchServer } from './_load.ts';
import { addPeople, FRAGMENTS } from './_people-data.ts';
import { report } from './_report.ts';

const LOADS = Number(process.env.BENCH_CONSOLE_LOADS ?? 7);
const SEARCH_ROUNDS = Number(process.env.BENCH_CONSOLE_SEARCH_ROUNDS ?? 5);
const PEOPLE = 50_000;
// the console keeps the tab's token under this sessionStorage key (packages/console/src/session/token.ts)
const TOKEN_KEY = 'lectern.token';

const { database, meta } = await seededDatabase(
  'assignments',
  new URL('./_assignments-data.ts', import.meta.url).pathname,
  { assignments: ASSIGNMENTS },
  seedAssignments,
);
await addPeople(database, PEOPLE);
const { token } = meta;

pinSelf();
const server = await startBenchServer(database.target);
const base = server.url;
const headers = { authorization: `Bearer ${token}` };
const users = (await (await fetch(`${base}/api/v2/users/?page_size=1`, { headers })).json()) as { meta: { total_count: number } };
console.log(`${users.meta.total_count} users`);
// launched as the browser tests launch it: Debian's Chromium, headless, with no background traffic
const browser: Browser = await launchChromium();

/** Signs the tab in before the app runs: through the DevTools protocol, as the console's CSP allows no inline script. */
const signIn = `sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)});`;

interface Load {
  firstTableMs: number;
  /** when the page's list request started and ended, from navigation start */
  list: { start: number; end: number };
  scripts: Array<{ url: string; transferred: number }>;
}

async function coldLoad(path: string, rowText: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    // Written as text: tsx would name a function's inner functions with a helper the page lacks.
    await page.addInitScript(`
      ${signIn}
      new MutationObserver(function (_, observer) {
        var rows = document.querySelectorAll('main table tbody tr');
        for (var i = 0; i < rows.length; i++) {
          if ((rows[i].textContent || '').indexOf(${JSON.stringify(rowText)}) === -1) continue;
          observer.disconnect();
          requestAnimationFrame(function () { performance.mark('lectern-first-table'); });
          return;
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    await page.goto(`${base}/console/${path}`);
    await page.waitForFunction(() => performance.getEntriesByName('lectern-first-table').length > 0, undefined, { timeout: 30_000 });
    return await page.evaluate(
      (route) => ({
        firstTableMs: performance.getEntriesByName('lectern-first-table')[0]!.startTime,
        list: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.name.includes(route))
          .map((entry) => ({ start: entry.startTime, end: entry.responseEnd }))[0] ?? { start: NaN, end: NaN },
        scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.name.endsWith('.js'))
          .map((entry) => ({ url: entry.name, transferred: entry.encodedBodySize })),
      }),
      `/api/v2/${path}`,
    );
  } finally {
    await context.close();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const listed = (values: number[]) => values.map((ms) => `${ms.toFixed(0)}`).join(', ');

/** An event at a location with two timeslots, one person enrolled: its public id. */
async function eventWithEnrollments(): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { public_id: string; id: number };
  };
  const location = await post('/api/v2/locations/', { name: 'Lighthouse room', timezone: 'Europe/Berlin' });
  const event = await post('/api/v2/events/', {
    name: 'Lighthouse workshop',
    location_id: location.id,
    enrollment_limit: 1,
    timeslots: [
      { starts_at: '2030-03-01T09:00:00Z', duration: 'PT1H' },
      { starts_at: '2030-03-02T09:00:00Z', duration: 'PT2H' },
    ],
  });
  await post('/api/v2/enrollments/', { user_id: meta.probe.user, event_id: event.public_id, attendance_method: 'in_person' });
  return event.public_id;
}

/** Every keystroke-to-options time of the picker searches, in ms. */
async function pickerSearches(): Promise<number[]> {
  const group = meta.group;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    // Keystrokes are counted; each search the picker shows (its list busy, then options in it) is
    // recorded with the count of keystrokes it answers and the time since the last of them.
    await page.addInitScript(`
      ${signIn}
      window.lecternKeys = { count: 0, at: 0, busy: false, done: [] };
      document.addEventListener('keydown', function (event) {
        if (!event.target || !event.target.getAttribute || event.target.getAttribute('role') !== 'combobox') return;
        lecternKeys.count++;
        lecternKeys.at = event.timeStamp;
        lecternKeys.busy = false;
      }, true);
      new MutationObserver(function () {
        var list = document.querySelector('[role="listbox"][aria-label="People to add"]');
        if (!list) return;
        if (list.getAttribute('aria-busy') === 'true') { lecternKeys.busy = true; return; }
        if (!lecternKeys.busy || !list.querySelector('[role="option"]:not([aria-disabled="true"])')) return;
        lecternKeys.busy = false;
        var keys = lecternKeys.count, at = lecternKeys.at;
        requestAnimationFrame(function () { lecternKeys.done.push({ keys: keys, ms: performance.now() - at }); });
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
    `);
    await page.goto(`${base}/console/groups/${group}`);
    const box = page.getByRole('combobox', { name: 'People to add' });
    await box.waitFor({ timeout: 30_000 });
    const times: number[] = [];
    for (let round = 0; round < SEARCH_ROUNDS; round++) {
      for (const fragment of FRAGMENTS) {
        // an empty box, and time for the search that emptying it starts to settle
        await box.fill('');
        await page.waitForTimeout(400);
        await page.evaluate(() => {
          const keys = (window as unknown as { lecternKeys: { count: number; done: unknown[] } }).lecternKeys;
          keys.count = 0;
          keys.done = [];
        });
        // a typist's pace: about eight keys a second
        await box.pressSequentially(fragment, { delay: 120 });
        const handle = await page.waitForFunction(
          (length) =>
            (window as unknown as { lecternKeys: { done: Array<{ keys: number; ms: number }> } }).lecternKeys.done.find(
              (search) => search.keys === length,
            )?.ms,
          fragment.length,
          { timeout: 30_000 },
        );
        times.push((await handle.jsonValue()) as number);
      }
    }
    return times;
  } finally {
    await context.close();
  }
}

try {
  const usersLoads: Load[] = [];
  for (let run = 0; run < LOADS; run++) usersLoads.push(await coldLoad('users', '@example.com'));
  const { scripts } = usersLoads[0]!;
  let gzipped = 0;
  for (const script of scripts) {
    const response = await fetch(script.url, { headers: { 'accept-encoding': 'identity' } });
    gzipped += gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
  }
  const onWire = scripts.reduce((sum, script) => sum + script.transferred, 0);
  report(
    'console: JavaScript of the first load, gzipped',
    gzipped / 1024,
    'KB',
    `${scripts.length} files; brotli as served ${(onWire / 1024).toFixed(1)} KB`,
    {
      below: 150,
    },
  );
  const assignmentLoads: Load[] = [];
  for (let run = 0; run < LOADS; run++) assignmentLoads.push(await coldLoad('assignments', '@example.com'));
  for (const [name, loads] of [
    ['Users', usersLoads],
    ['Assignments', assignmentLoads],
  ] as const) {
    const times = loads.map((load) => load.firstTableMs).sort((a, b) => a - b);
    const middle = [...loads].sort((a, b) => a.firstTableMs - b.firstTableMs)[Math.floor(loads.length / 2)]!;
    const breakdown = `${listed(times)} ms; the median load's list request ${middle.list.start.toFixed(0)}→${middle.list.end.toFixed(0)} ms`;
    report(`console: navigation → ${name} table painted (median of ${LOADS})`, percentile(times, 50), 'ms', breakdown, {
      below: 300,
    });
  }

  for (const name of ['Users', 'Assignments'] as const) {
    const times: number[] = [];
    for (let run = 0; run < LOADS; run++)
      times.push(await inAppNavigation(browser, { base, initScript: signIn, link: name, rowText: '@example.com' }));
    times.sort((a, b) => a - b);
    report(`console: in-app navigation → ${name} table painted (median of ${LOADS})`, percentile(times, 50), 'ms', `${listed(times)} ms`, {
      below: 300,
    });
  }

  const searches = (await pickerSearches()).sort((a, b) => a - b);
  const detail = `${searches.length} searches of ${FRAGMENTS.length} fragments over ${users.meta.total_count} users`;
  report('console: picker keystroke → options shown, p50', percentile(searches, 50), 'ms', detail, { below: 100 });
  report('console: picker keystroke → options shown, p95', percentile(searches, 95), 'ms', `max ${searches.at(-1)!.toFixed(0)} ms`, {
    reported: true,
  });

  const scores = await auditWithLighthouse(base, TOKEN_KEY, token, [
    { name: 'Users', path: 'users' },
    { name: 'Event', path: `events/${await eventWithEnrollments()}` },
  ]);
  for (const { page, category, score, failing } of scores)
    report(`console: Lighthouse ${category}, ${page}`, score, '', failing.join('; '), { atLeast: 95 });
} finally {
  await browser.close();
  await stopBenchServer(server.child);
  await database.dispose();
}
