/**
 * Sortable column headers: pressing a header orders the list by that column on the server (first
 * ascending, then descending), the header says so to assistive technology (aria-sort), the order
 * lives in the address so a reload and the back button keep it, and the keyboard alone can do it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { assertAccessible, eventually, openPage, signInWithToken, useBrowser } from './browser.ts';

describe('console sortable headers', () => {
  const server = useServer();
  const browser = useBrowser();
  const run = `${process.pid}${Date.now() % 100000}`;

  /** The names in a table, top to bottom, once it has finished loading. */
  async function shownNames(page: Page, table: string): Promise<string[]> {
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    // the first cell after the selection box, where a list has one
    return page
      .getByRole('table', { name: table })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('td:not(.select)')?.textContent?.trim() ?? ''));
  }

  async function namesAre(page: Page, expected: string[], what: string, table = 'Users'): Promise<void> {
    let last: string[] = [];
    await eventually(
      async () => {
        last = await shownNames(page, table);
        return JSON.stringify(last) === JSON.stringify(expected);
      },
      `${what} (shown: ${last.join(', ')})`,
    );
  }

  it('orders the users by a header, both ways, keeps the order in the address, and works from the keyboard', async () => {
    // names and emails sort in opposite orders, so each header's order is told apart
    const people = [
      { name: `Sort${run} Ann`, email: uniqueEmail('sortzz') },
      { name: `Sort${run} Bob`, email: uniqueEmail('sortmm') },
      { name: `Sort${run} Cid`, email: uniqueEmail('sortaa') },
    ];
    for (const person of people) {
      const response = await server.api.post('/api/v2/users/', person);
      assert.equal(response.status, 201, response.text);
    }
    const names = people.map((person) => person.name);
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Users');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`Sort${run}`);
    await page.getByRole('button', { name: 'Apply' }).click();

    const header = (name: string) => page.getByRole('table', { name: 'Users' }).getByRole('columnheader', { name });
    const nameHeader = header('Name');
    assert.equal(await nameHeader.getAttribute('aria-sort'), null, 'no order chosen yet');

    await nameHeader.getByRole('button').click();
    await namesAre(page, names, 'ascending by name');
    assert.equal(await nameHeader.getAttribute('aria-sort'), 'ascending');
    assert.equal(new URL(page.url()).searchParams.get('ordering'), 'name');

    await nameHeader.getByRole('button').click();
    await namesAre(page, [...names].reverse(), 'descending by name');
    assert.equal(await nameHeader.getAttribute('aria-sort'), 'descending');
    assert.equal(new URL(page.url()).searchParams.get('ordering'), '-name');
    await assertAccessible(page, 'Users sorted');

    await page.reload();
    await namesAre(page, [...names].reverse(), 'descending by name after a reload');
    assert.equal(await header('Name').getAttribute('aria-sort'), 'descending');

    // the keyboard alone: focus the Email header's button and press Enter
    await header('Email').getByRole('button').focus();
    await page.keyboard.press('Enter');
    await namesAre(page, [...names].reverse(), 'ascending by email (the emails sort the other way)');
    assert.equal(await header('Email').getAttribute('aria-sort'), 'ascending');
    assert.equal(await header('Name').getAttribute('aria-sort'), null, 'one column is sorted at a time');
    assert.equal(new URL(page.url()).searchParams.get('ordering'), 'email');
    await page.keyboard.press('Enter');
    await namesAre(page, names, 'descending by email');

    await page.goBack();
    await eventually(async () => new URL(page.url()).searchParams.get('ordering') === 'email', 'back to the previous order');
    await namesAre(page, [...names].reverse(), 'the previous order after Back');
    assert.equal(await header('Email').getAttribute('aria-sort'), 'ascending');

    // a column the API cannot order by has no button
    assert.equal(await header('Status').getByRole('button').count(), 0);
  });

  it('orders the groups by their member count, which the names do not follow', async () => {
    const member = async (name: string): Promise<string> => {
      const response = await server.api.post('/api/v2/users/', { name, email: uniqueEmail('sortgm') });
      assert.equal(response.status, 201, response.text);
      return response.body.public_id as string;
    };
    const people = [await member(`Sortg${run} P1`), await member(`Sortg${run} P2`)];
    // Ann has the most members and Cid none: by members ascending the names run backwards
    const groups = [
      { name: `Sortg${run} Ann`, members: people },
      { name: `Sortg${run} Bob`, members: people.slice(0, 1) },
      { name: `Sortg${run} Cid`, members: [] },
    ];
    for (const group of groups) {
      const created = await server.api.post('/api/v2/groups/', { name: group.name });
      assert.equal(created.status, 201, created.text);
      if (group.members.length === 0) continue;
      const added = await server.api.post(`/api/v2/groups/${created.body.public_id}/members/`, { member_ids: group.members });
      assert.ok(added.status < 300, added.text);
    }
    const names = groups.map((group) => group.name);
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Groups');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`Sortg${run}`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await namesAre(page, names, 'the three groups', 'Groups');

    const members = page.getByRole('table', { name: 'Groups' }).getByRole('columnheader', { name: 'Members' });
    await members.getByRole('button').click();
    await namesAre(page, [...names].reverse(), 'fewest members first', 'Groups');
    assert.equal(await members.getAttribute('aria-sort'), 'ascending');
    assert.equal(new URL(page.url()).searchParams.get('ordering'), 'member_count');
    await members.getByRole('button').click();
    await namesAre(page, names, 'most members first', 'Groups');
    assert.equal(await members.getAttribute('aria-sort'), 'descending');
    assert.equal(new URL(page.url()).searchParams.get('ordering'), '-member_count');
    await assertAccessible(page, 'Groups sorted');
  });
});
