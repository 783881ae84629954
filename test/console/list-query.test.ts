/**
 * A list's filters go from the address to the API in the route's own types: an enum filter and a
 * yes/no filter narrow the rows, the CSV download sends the same filters, and a hand-edited
 * address with values the route does not take is read as no filter, not as an error.
 */
import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { eventually, openPage, signInWithToken, useBrowser } from './browser.ts';

describe('console list filters from the address', () => {
  const server = useServer();
  const browser = useBrowser();
  const run = `${process.pid}${Date.now() % 100000}`;

  async function shownNames(page: Page): Promise<string[]> {
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    // the first cell after the selection box
    const names = await page
      .getByRole('table', { name: 'Users' })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('td:not(.select)')?.textContent?.trim() ?? ''));
    return names.sort();
  }

  async function namesAre(page: Page, expected: string[], what: string): Promise<void> {
    let last: string[] = [];
    await eventually(
      async () => {
        last = await shownNames(page);
        return JSON.stringify(last) === JSON.stringify([...expected].sort());
      },
      `${what} (shown: ${last.join(', ')})`,
    );
  }

  it('filters users by role and by active, downloads the same rows as CSV, and ignores values the route does not take', async () => {
    const made = async (name: string, role: string) => {
      const response = await server.api.post('/api/v2/users/', { name, email: uniqueEmail('listq'), role });
      assert.equal(response.status, 201, response.text);
      return { name, email: response.body.email as string, id: response.body.public_id as string };
    };
    const organizer = await made(`Listq${run} Olga`, 'organizer');
    const learner = await made(`Listq${run} Lena`, 'user');
    const leaver = await made(`Listq${run} Otto`, 'organizer');
    const deactivated = await server.api.patch(`/api/v2/users/${leaver.id}/`, { is_active: false });
    assert.equal(deactivated.status, 200, deactivated.text);

    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Users');
    const filters = page.getByRole('search', { name: 'Filter users' });
    await filters.getByRole('searchbox', { name: 'Search' }).fill(`Listq${run}`);
    await filters.getByRole('button', { name: 'Apply' }).click();
    await namesAre(page, [organizer.name, learner.name, leaver.name], 'all three');

    await filters.getByLabel('Role').selectOption('organizer');
    await namesAre(page, [organizer.name, leaver.name], 'the organizers');
    assert.equal(new URL(page.url()).searchParams.get('role'), 'organizer');
    await filters.getByLabel('Active').selectOption('false');
    await namesAre(page, [leaver.name], 'the deactivated organizer');

    // the download asks the server with the same filters
    await filters.getByLabel('Active').selectOption('true');
    await namesAre(page, [organizer.name], 'the active organizer');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'users.csv');
    const csv = await text(await download.createReadStream());
    assert.ok(csv.includes(organizer.email), csv);
    assert.ok(!csv.includes(learner.email) && !csv.includes(leaver.email), `only the filtered user: ${csv}`);

    // an address edited by hand: values the route does not take are no filter, and nothing fails
    const address = new URL(page.url());
    address.searchParams.set('role', 'emperor');
    address.searchParams.set('is_active', 'maybe');
    address.searchParams.set('page_size', 'many');
    await page.goto(address.toString());
    await namesAre(page, [organizer.name, learner.name, leaver.name], 'unfiltered after unknown values');
    assert.equal(await page.locator('.banner.error').count(), 0, 'no error shown');
  });
});
