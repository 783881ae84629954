/** The About page: an admin reads how the server is set up; a learner reads the version only. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { userWithToken, useServer } from '../helpers/server.ts';
import { assertAccessible, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console About page', () => {
  const server = useServer();
  const browser = useBrowser();

  it('tells an admin the version, the database and that email is off because smtp_url is not set', async () => {
    const about = (await server.api.get('/api/v2/about/')).body;
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'About');
    const facts = page.getByRole('region', { name: 'This server' });
    await facts.getByText(about.version, { exact: true }).waitFor();
    await facts.getByText(about.node_version, { exact: true }).waitFor();
    const database = process.env.LECTERN_TEST_DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite';
    await facts.getByText(database, { exact: false }).waitFor();
    await facts.getByText(about.configuration.instance_id, { exact: true }).waitFor();
    const features = page.getByRole('region', { name: 'Optional features' });
    await features.getByText('No SMTP server is set (smtp_url), so no notification is queued or sent.').waitFor();
    await features.getByText('oidc_issuer is not set', { exact: false }).waitFor();
    await features.getByText(about.configuration.scim.base_url, { exact: true }).waitFor();
    await assertAccessible(page, 'About');
    await screenshot(page, 'about-admin');
  });

  it('shows a learner the version and says the configuration is for admins', async () => {
    const learner = await userWithToken(server, 'user');
    const page = await browser.newPage(390);
    await signInWithToken(page, server.url, learner.token);
    await openPage(page, 'About');
    await page.getByText('Only admins see how this server is configured.').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Optional features' }).count(), 0);
    assert.equal(await page.getByText('Instance id').count(), 0);
    await assertAccessible(page, 'About for a learner');
    await screenshot(page, 'about-learner');
  });
});
