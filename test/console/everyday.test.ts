/**
 * The small things a console user meets every day: a group made in the console is `native`, an
 * error about a list lands on that list's picker, Esc closes what is open, and a
 * table's buttons are never cut off.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { assignedArticle, uniqueEmail, useServer } from '../helpers/server.ts';
import { assertAccessible, descriptionOf, eventually, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console: everyday details', () => {
  const server = useServer();
  const browser = useBrowser();

  async function adminPage(width = 1280): Promise<Page> {
    const page = await browser.newPage(width);
    await signInWithToken(page, server.url, server.adminToken);
    return page;
  }

  it('creates a native group, puts an error about the members on the members picker, and leaves its page with Esc', async () => {
    const page = await adminPage();
    await openPage(page, 'Groups');
    await page.getByText('New group', { exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Everyday group');
    await page.getByRole('button', { name: 'Create group' }).click();
    const panel = page.getByRole('region', { name: 'Everyday group' });
    await panel.waitFor();
    const listed = await server.api.get('/api/v2/groups/?search=Everyday');
    assert.equal(listed.body.data[0].source, 'native');

    // a name typed but not picked sends nothing: the picker says so beside itself
    const members = panel.getByRole('combobox', { name: 'People to add' });
    await members.pressSequentially('margaret');
    await panel.getByRole('button', { name: 'Add members' }).click();
    await eventually(async () => (await members.getAttribute('aria-invalid')) === 'true', 'the members field marked invalid');
    assert.match(await descriptionOf(members), /Pick at least one from the list\./);
    await assertAccessible(page, 'Groups with an error on one member');
    await screenshot(page, 'groups-member-error');

    // the group has its own page; Esc there goes back to the list, as the panel it replaced closed
    assert.match(new URL(page.url()).pathname, /^\/console\/groups\/[0-9a-f-]{36}$/);
    await members.press('Escape');
    await panel.waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, '/console/groups');
  });

  it('closes an open form with Esc, and takes the focus back to its summary', async () => {
    const page = await adminPage();
    await openPage(page, 'Groups');
    await page.getByText('New group', { exact: true }).click();
    const name = page.getByLabel('Name', { exact: true });
    await name.focus();
    await name.press('Escape');
    await name.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'New group');
  });

  it('says what to do next on an empty list, and that nothing matches a search, with a way back', async () => {
    const page = await adminPage();
    // no endpoint is made in this file: the list is empty and says how to add one
    await openPage(page, 'Webhooks');
    await page.getByRole('table', { name: 'Webhook endpoints' }).getByText('No webhook endpoints yet. Add one above').waitFor();

    await server.api.post('/api/v2/groups/', { name: 'Everyday searchers' });
    await openPage(page, 'Groups');
    const groups = page.getByRole('table', { name: 'Groups' });
    await groups.getByRole('link', { name: 'Everyday searchers' }).waitFor();
    await page.getByLabel('Search').fill('no group is called this');
    await page.getByRole('button', { name: 'Apply' }).click();
    await groups.getByText('Nothing matches this filter.').waitFor();
    assert.match(page.url(), /search=no/);
    await assertAccessible(page, 'Groups with no match');
    await groups.getByRole('button', { name: 'Clear the filter' }).click();
    await groups.getByRole('link', { name: 'Everyday searchers' }).waitFor();
    assert.doesNotMatch(page.url(), /search=/);
  });

  it('shows every button of the Assignments actions column at 1280 px', async () => {
    await assignedArticle(server.api, { article: 'An article with a rather long name to fill its column' });
    const page = await adminPage(1280);
    await openPage(page, 'Assignments');
    await page
      .getByRole('button', { name: /^Complete .* for / })
      .first()
      .waitFor();
    const clipped = await page.evaluate(
      () =>
        [...document.querySelectorAll('td')].filter((cell) => cell.querySelector('button') && cell.scrollWidth > cell.clientWidth).length,
    );
    assert.equal(clipped, 0, 'cells whose buttons are cut off');
    await screenshot(page, 'assignments-actions');
  });

  it('lists bulk jobs started anywhere and opens one', async () => {
    const submitted = await server.api.post('/api/v2/users/bulk/', {
      users: [{ email: uniqueEmail('bulk'), name: 'Bulk Person' }, 'not a user'],
    });
    assert.equal(submitted.status, 202, submitted.text);
    const page = await adminPage();
    await openPage(page, 'Bulk jobs');
    const table = page.getByRole('table', { name: 'Bulk jobs, newest first' });
    await table.getByRole('link', { name: `users job ${submitted.body.id}` }).click();
    const detail = page.getByRole('region', { name: /^Job / });
    await detail.getByText('2 of 2 processed · 1 succeeded · 1 failed').waitFor();
    await assertAccessible(page, 'Bulk jobs with a job open');
    await screenshot(page, 'bulk-jobs-open');
  });
});
