/**
 * Signing in to the console: with a pasted token (kept in the tab's sessionStorage, never in the
 * address or localStorage), with a one-time link from `lectern console-url` (which works once),
 * and signing out, which forgets the token.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, useServer } from '../helpers/server.ts';
import { assertAccessible, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console sign-in', () => {
  const server = useServer();
  const browser = useBrowser();

  it('signs in with a pasted token, keeps it in sessionStorage only, and forgets it on sign-out', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    // `/` leads to the console, which asks for a token
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal(new URL(page.url()).pathname.startsWith('/console/'), true, page.url());
    await assertAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'sign-in');
    await page.setViewportSize({ width: 1280, height: 900 });

    await signInWithToken(page, server.url, server.adminToken);
    assert.ok(!page.url().includes(server.adminToken));
    const storage = await page.evaluate(() => ({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage) }));
    assert.ok(storage.session.includes(server.adminToken));
    assert.ok(!storage.local.includes(server.adminToken));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    // the token still works: signing out revokes nothing
    assert.equal((await server.api.get('/api/v2/me/')).status, 200);
  });

  it('refuses a wrong token beside the form', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/console/sign-in`);
    await page.getByLabel('API token').fill('lpat_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
  });

  it('signs in once with a one-time link; the same link then fails', async () => {
    const cli = await runCli(['console-url', '--db', server.dbFile, '--email', 'admin@example.com', '--base-url', server.url]);
    assert.equal(cli.code, 0, cli.stderr);
    const link = cli.stdout.trim();
    assert.match(link, /\/console\/sign-in\?code=/);

    const page = await browser.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // the code leaves the address at once
    assert.ok(!page.url().includes('code='), page.url());

    const second = await browser.newPage();
    await second.goto(link);
    await second.getByText('This sign-in link is not valid any more', { exact: false }).waitFor();
    assert.equal(await second.getByRole('button', { name: 'Sign out' }).count(), 0);
    await assertAccessible(second, 'sign-in with a used link');
  });
});
