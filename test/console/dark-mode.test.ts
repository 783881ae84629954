/**
 * Dark mode: the console follows the system's colour scheme (Playwright's `colorScheme` emulation),
 * every page stays accessible in it (axe-core's contrast checks included), and the header's toggle
 * switches it, is remembered across a reload, and wins over the system's choice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { accessibilityProblems, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';
import { PAGES } from './page-list.ts';

/** The page's background as the eye sees it: its luminance from 0 (black) to 255 (white). */
async function backgroundLuminance(page: Page): Promise<number> {
  const colour = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  assert.ok(r !== undefined && g !== undefined && b !== undefined, `a background colour: ${colour}`);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('console dark mode', () => {
  const server = useServer();
  const browser = useBrowser();

  it('follows a dark system scheme on every page, with no accessibility problem, and draws charts in its colours', async () => {
    await server.api.post('/api/v2/groups/', { name: 'Dark Sales' });
    const page = await browser.newPage(1280, 'dark');
    await signInWithToken(page, server.url, server.adminToken);
    assert.ok((await backgroundLuminance(page)) < 40, 'a dark background');
    assert.equal(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed'), 'true');
    const problems: string[] = [];
    for (const [link, , name] of PAGES) {
      await openPage(page, link);
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      problems.push(...(await accessibilityProblems(page)).map((problem) => `${link}: ${problem}`));
      await screenshot(page, `dark-${name}`);
    }
    // a record's page too: a user with a group and an audit trail (badges, links, change lists)
    const person = (await server.api.post('/api/v2/users/', { email: uniqueEmail('dark'), name: 'Dark Person' })).body;
    const group = (await server.api.get('/api/v2/groups/?name=Dark Sales')).body.data[0];
    await server.api.post(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [person.public_id] });
    await server.api.patch(`/api/v2/users/${person.public_id}/`, { employee_id: 'D-1' });
    await openPage(page, 'Users');
    await page.getByLabel('Search').fill('Dark Person');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('link', { name: 'Dark Person', exact: true }).click();
    await page.getByRole('table', { name: 'Groups they are a member of' }).getByRole('link', { name: 'Dark Sales' }).waitFor();
    await page.getByText('employee_id: none → D-1').waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    problems.push(...(await accessibilityProblems(page)).map((problem) => `user page: ${problem}`));
    await screenshot(page, 'dark-user');
    assert.deepEqual(problems, [], 'problems in dark mode');

    // the overview's charts are drawn with the dark accent (light bars on a dark page), not the light one
    await openPage(page, 'Overview');
    const canvas = page.locator('figure.chart canvas').first();
    await canvas.waitFor();
    const bright = await canvas.evaluate((element) => {
      const context = (element as HTMLCanvasElement).getContext('2d')!;
      const { data } = context.getImageData(0, 0, (element as HTMLCanvasElement).width, (element as HTMLCanvasElement).height);
      let brightest = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 3]! > 200) brightest = Math.max(brightest, data[i]! + data[i + 1]! + data[i + 2]!);
      return brightest;
    });
    assert.ok(bright > 500, `the chart's axes and labels are light on the dark page (brightest pixel ${bright} of 765)`);
  });

  it('switches with the header toggle, remembers the choice over a reload, and the choice wins over the system', async () => {
    const page = await browser.newPage(390, 'light');
    await signInWithToken(page, server.url, server.adminToken);
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.ok((await backgroundLuminance(page)) > 215, 'a light background');

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.ok((await backgroundLuminance(page)) < 40, 'dark after the toggle');
    await openPage(page, 'Users');
    assert.deepEqual(await accessibilityProblems(page), [], 'the users page, toggled dark');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    assert.ok((await backgroundLuminance(page)) < 40, 'still dark after a reload');
    assert.equal(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed'), 'true');

    // back to light, while the system now says dark: the person's choice wins
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Dark mode' }).click();
    assert.equal(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed'), 'false');
    assert.ok((await backgroundLuminance(page)) > 215, 'light by choice on a dark system');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    assert.ok((await backgroundLuminance(page)) > 215, 'the light choice is remembered too');
  });
});
