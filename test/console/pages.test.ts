/**
 * Every page of the console, as an admin sees it at desktop (1280 px) and phone (390 px) width:
 * it opens from the navigation with its one h1, axe-core finds no serious or critical violation,
 * and a screenshot lands in test-results/console/. Then what a learner sees: its own pages only,
 * and a 403 explained where the admin pages would be.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { created, userWithToken, useServer } from '../helpers/server.ts';
import { accessibilityProblems, assertAccessible, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';
import { PAGES } from './page-list.ts';

// pages whose every route needs a scope the user role never has, and the imports and bulk jobs
// that only admins and organizers may submit (a learner's assignments:write is for its own work)
const ADMIN_ONLY = ['Users', 'Groups', 'Reports', 'Webhooks', 'Imports', 'Bulk jobs', 'Notifications', 'Audit log'];

describe('console pages', () => {
  const server = useServer();
  const browser = useBrowser();

  for (const width of [1280, 390]) {
    it(`opens every page from the navigation at ${width} px, accessible, and screenshots it`, async () => {
      // something in the lists, so tables are drawn with rows
      await server.api.post('/api/v2/groups/', { name: 'Sales' });
      const page = await browser.newPage(width);
      // every file a page asks for exists (the icon among them)
      const missing: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 404) missing.push(response.url());
      });
      await signInWithToken(page, server.url, server.adminToken);
      // every page is visited and pictured; the problems of all of them are reported together
      const problems: string[] = [];
      for (const [link, path, name] of PAGES) {
        await openPage(page, link);
        assert.equal(new URL(page.url()).pathname, `/console/${path}`);
        assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${link}: one h1`);
        // the page has finished loading what it shows
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
        problems.push(...(await accessibilityProblems(page)).map((problem) => `${link}: ${problem}`));
        // nothing wider than the window: no sideways scrolling of the whole page
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) problems.push(`${link}: ${overflow} px wider than the window`);
        const clipped = await page.evaluate(
          () =>
            [...document.querySelectorAll('td')].filter((cell) => cell.querySelector('button') && cell.scrollWidth > cell.clientWidth)
              .length,
        );
        if (clipped > 0) problems.push(`${link}: ${clipped} table cells with buttons cut off`);
        await screenshot(page, name);
      }
      assert.deepEqual(problems, [], `problems at ${width} px`);
      assert.deepEqual(missing, [], 'files not found');
    });
  }

  it('a learner sees only what its token allows, and a 403 explained on an admin page', async () => {
    const learner = await userWithToken(server, 'user');
    const article = await created(server.api, '/api/v2/articles/', { name: 'Late reading' });
    await created(server.api, '/api/v2/assignments/', {
      user_id: learner.user.public_id,
      content_item_id: article.public_id,
      due_date: '2020-01-31',
    });
    const page = await browser.newPage();
    await signInWithToken(page, server.url, learner.token);
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Overview', exact: true }).waitFor();
    const links = await nav.getByRole('link').allTextContents();
    for (const name of ADMIN_ONLY) assert.ok(!links.includes(name), `a learner's navigation shows ${name}: ${links.join(', ')}`);
    assert.ok(links.includes('Assignments'), links.join(', '));
    // the overview's open assignments read as every assignment table does: the state, and a due date past says so
    const open = page.getByRole('table', { name: 'Open assignments' });
    await open.getByRole('row', { name: /Late reading/ }).waitFor();
    assert.deepEqual(
      await open
        .getByRole('row', { name: /Late reading/ })
        .getByRole('cell')
        .allTextContents(),
      ['Late reading', 'not started', '2020-01-31 overdue'],
    );
    await assertAccessible(page, "a learner's overview");

    // an address typed or bookmarked: the page says why instead of failing silently
    await page.goto(`${server.url}/console/users`);
    await page.getByRole('heading', { level: 2, name: 'Not allowed' }).waitFor();
    await assertAccessible(page, 'a learner on Users');
    await screenshot(page, 'learner-forbidden');
    assert.equal(await page.getByRole('button', { name: 'Create user' }).count(), 0);
  });

  it("explains, rather than hides, a page the token's scopes do not reach", async () => {
    // an admin's token limited to reading users: the Webhooks page needs webhooks:read
    const limited = await userWithToken(server, 'admin', 'users:read');
    const page = await browser.newPage();
    await signInWithToken(page, server.url, limited.token);
    await page.goto(`${server.url}/console/webhooks`);
    await page.getByRole('heading', { level: 2, name: 'Not allowed' }).waitFor();
    await assertAccessible(page, 'a limited token on Webhooks');
  });

  it('explains a 403 the server answers: an organizer adding members to a group it does not own', async () => {
    const created = await server.api.post('/api/v2/groups/', { name: 'Finance (not yours)' });
    assert.equal(created.status, 201, created.text);
    const organizer = await userWithToken(server, 'organizer');
    const page = await browser.newPage();
    await signInWithToken(page, server.url, organizer.token);
    await openPage(page, 'Groups');
    await page.getByRole('link', { name: 'Finance (not yours)', exact: true }).click();
    const detail = page.getByRole('region', { name: 'Finance (not yours)' });
    await detail.getByRole('combobox', { name: 'People to add' }).fill(organizer.user.email);
    await detail.getByRole('option', { name: new RegExp(organizer.user.email.replace(/\./g, '\\.')) }).click();
    await detail.getByRole('button', { name: 'Add members' }).click();
    await detail.getByRole('heading', { level: 2, name: 'Not allowed' }).waitFor();
    await detail.getByText('Organizers can change only the groups they own.', { exact: false }).waitFor();
    assert.equal((await server.api.get(`/api/v2/groups/${created.body.public_id}/`)).body.member_count, 0);
    await assertAccessible(page, 'a 403 on Groups');
    await screenshot(page, 'groups-forbidden');
  });

  it('works from the keyboard: the first Tab shows "Skip to content", which takes focus to the page', async () => {
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    // a fresh load, so the first Tab starts from the top of the page
    await page.goto(`${server.url}/console/users`);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return { text: element.textContent, outline: style.outlineStyle, width: style.outlineWidth, shadow: style.boxShadow };
    });
    assert.equal(focused.text, 'Skip to content');
    assert.ok(
      (focused.outline !== 'none' && focused.width !== '0px') || focused.shadow !== 'none',
      `no visible focus: ${JSON.stringify(focused)}`,
    );
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
  });
});

describe('console without its server', () => {
  const server = useServer();
  const browser = useBrowser();

  it('shows a retry, not a blank page, when the server cannot be reached', async () => {
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Users');
    await page.getByLabel('Search').waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    assert.equal(await server.stop(), 0);
    // the page's code is loaded already; its next data request finds no server
    await page.getByLabel('Search').fill('ada');
    await page.getByRole('button', { name: 'Apply' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'could not be reached' });
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Retry' }).waitFor();
    await assertAccessible(page, 'Users without a server');
    await screenshot(page, 'users-server-gone');
  });
});
