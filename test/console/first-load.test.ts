/**
 * A page opened at its address loads its scripts in one wave: the HTML the server answers for
 * /console/<page> names every script that first load runs (the shell's and the page's), so the
 * browser never finds one only after running another. Each load is a fresh context, as a new
 * visitor's browser with an empty cache.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../helpers/server.ts';
import { useBrowser } from './browser.ts';

// the console keeps the tab's token under this sessionStorage key (packages/console/src/session/token.ts)
const TOKEN_KEY = 'lectern.token';

/** The scripts an HTML page names: its module script and its preloads. */
function namedScripts(html: string): Set<string> {
  const names = [...html.matchAll(/<script type="module" src="([^"]+)"|<link rel="modulepreload" href="([^"]+)"/g)];
  return new Set(names.map((match) => (match[1] ?? match[2])!));
}

describe('the first load of a page', () => {
  const server = useServer();
  const browser = useBrowser();

  for (const [path, heading, chunk] of [
    ['users', 'Users', 'users-'],
    ['assignments', 'Assignments', 'assignments-'],
    ['', 'Overview', 'overview-'],
  ] as const) {
    it(`/console/${path}: every script it runs is named in the HTML the server answers`, async () => {
      const html = await (await fetch(`${server.url}/console/${path}`)).text();
      const named = namedScripts(html);
      assert.ok(
        [...named].some((name) => name.startsWith(`/console/chunks/${chunk}`)),
        `the HTML names the page's own chunk: ${[...named].join(', ')}`,
      );

      const page = await browser.newPage();
      await page.addInitScript(`sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(server.adminToken)});`);
      const requested: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('.js')) requested.push(url.pathname);
      });
      await page.goto(`${server.url}/console/${path}`);
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
      // whatever the page loads after its first render (charts, option lists) is asked for by then
      await page.waitForLoadState('networkidle');

      assert.ok(
        requested.some((name) => name.startsWith(`/console/chunks/${chunk}`)),
        `the page's chunk ran: ${requested.join(', ')}`,
      );
      const unnamed = requested.filter((name) => !named.has(name));
      assert.deepEqual(unnamed, [], 'scripts found only by running others (a second wave)');
    });
  }
});
