/**
 * The web console as a first-time visitor's browser meets it: Debian's Chromium (playwright-core)
 * against a server on a database of 1000 users, each run in a fresh browser context (empty cache).
 *
 * - JavaScript of the first load: every script the Users page loads, signed in, from navigation
 *   to its table (the shell, the page's chunk and what they import), gzipped at level 9 as the
 *   target is stated; the bytes brotli puts on the wire (what Lectern sends to Chromium) beside it.
 * - Navigation to the first table painted: `performance.now()` (time since navigation start) in
 *   the first animation frame after the Users table's first data row is in the document, through
 *   a mark the page records; the median of 5 cold loads.
 */
import { gzipSync } from 'node:zlib';
import { createLectern } from '@lectern/core';
import { createApp, folderConsoleFiles, listen } from '@lectern/http';
import { launchChromium } from '../../test/console/chromium.ts';
import { benchDatabase } from './_database.ts';
import { report } from './_report.ts';

const USERS = 1000;
const RUNS = 5;
// the console keeps the tab's token under this sessionStorage key (packages/console/src/session/token.ts)
const TOKEN_KEY = 'lectern.token';

const database = await benchDatabase('console');
const lectern = createLectern({ storage: await database.open() });
const { token } = (await lectern.bootstrapAdmin({ email: 'admin@example.com', name: 'Admin' }))!.token;
const ctx = lectern.context();
for (let i = 0; i < USERS; i++) await lectern.users.create(ctx, { email: `learner${i}@example.com`, name: `Learner ${i}`, role: 'user' });
const server = await listen(
  createApp(lectern, {
    consoleFiles: folderConsoleFiles(new URL('../../packages/console/dist', import.meta.url).pathname),
    rateLimit: { limit: 1_000_000, windowSeconds: 60 },
  }),
  { port: 0, host: '127.0.0.1' },
);
// launched as the browser tests launch it: Debian's Chromium, headless, with no background traffic
const browser = await launchChromium();

interface Load {
  firstTableMs: number;
  scripts: Array<{ url: string; transferred: number }>;
}

async function coldLoad(): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    // through the DevTools protocol, before the app runs: the console's CSP allows no inline script.
    // Written as text: tsx would name a function's inner functions with a helper the page lacks.
    await page.addInitScript(`
      sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)});
      new MutationObserver(function (_, observer) {
        var rows = document.querySelectorAll('main table tbody tr');
        for (var i = 0; i < rows.length; i++) {
          if ((rows[i].textContent || '').indexOf('@example.com') === -1) continue;
          observer.disconnect();
          requestAnimationFrame(function () { performance.mark('lectern-first-table'); });
          return;
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    await page.goto(`${server.url}/console/users`);
    await page.waitForFunction(() => performance.getEntriesByName('lectern-first-table').length > 0, undefined, { timeout: 30_000 });
    return await page.evaluate(() => ({
      firstTableMs: performance.getEntriesByName('lectern-first-table')[0]!.startTime,
      scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => ({ url: entry.name, transferred: entry.encodedBodySize })),
    }));
  } finally {
    await context.close();
  }
}

try {
  const loads: Load[] = [];
  for (let run = 0; run < RUNS; run++) loads.push(await coldLoad());
  const { scripts } = loads[0]!;
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
  const times = loads.map((load) => load.firstTableMs).sort((a, b) => a - b);
  report(
    `console: navigation → first table painted (median of ${RUNS} cold loads)`,
    times[Math.floor(RUNS / 2)]!,
    'ms',
    times.map((ms) => `${ms.toFixed(0)} ms`).join(', '),
    {
      below: 1000,
    },
  );
} finally {
  await browser.close();
  await server.close();
  await lectern.close();
  await database.dispose();
}
