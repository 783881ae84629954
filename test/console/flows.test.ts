/**
 * What an administrator does in the console, end to end against a real server: users (create,
 * edit, an API validation error beside its field), renaming a group, webhooks (an endpoint, a test ping to a local
 * receiver, the delivery in the log), saved reports (an RQL error marked, fixed, results) and a
 * CSV import with bad rows (the report, failed rows first).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { tempDir, uniqueEmail, useServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { assertAccessible, descriptionOf, eventually, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console flows', () => {
  // webhook pings go to a receiver on this machine: loopback targets allowed, as in development
  const server = useServer({ args: ['--allow-private-webhook-targets', '--webhook-retry-schedule', '1,1,1'] });
  const browser = useBrowser();
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  async function adminPage(): Promise<Page> {
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    return page;
  }

  it('creates a user, shows the API’s validation error beside its field, and edits the user', async () => {
    const page = await adminPage();
    await openPage(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();

    // the server's 422, not the browser's own checks, is what shows beside the field
    const email = page.getByLabel('Email', { exact: true });
    await email.fill('not-an-email');
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Create user' }).click();
    await eventually(async () => (await email.getAttribute('aria-invalid')) === 'true', 'the email field marked invalid');
    assert.match(await descriptionOf(email), /email/i);
    await assertAccessible(page, 'Users with a field error');
    await screenshot(page, 'users-field-error');

    const address = uniqueEmail('ada');
    await email.fill(address);
    await page.getByRole('button', { name: 'Create user' }).click();
    await eventually(async () => {
      const list = await server.api.get(`/api/v2/users/?search=${encodeURIComponent(address)}`);
      return list.body.data.length === 1;
    }, 'the user to exist');

    // the new user's own page opens, with the profile form
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    const edit = page.getByRole('region', { name: 'Profile' });
    await edit.getByLabel('Name', { exact: true }).fill('Ada King');
    await edit.getByLabel('Email notifications').uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Saved.').waitFor();
    const stored = await server.api.get(`/api/v2/users/?search=${encodeURIComponent(address)}`);
    assert.equal(stored.body.data[0].name, 'Ada King');
    assert.equal(stored.body.data[0].email_notifications, false);
    // the user is read again: the page takes the new name
    await page.getByRole('heading', { level: 1, name: 'Ada King' }).waitFor();
  });

  it('renames a group from its page', async () => {
    const created = await server.api.post('/api/v2/groups/', { name: 'Rename me', source: 'hr' });
    assert.equal(created.status, 201, created.text);
    const page = await adminPage();
    await openPage(page, 'Groups');
    await page.getByRole('link', { name: 'Rename me', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Rename me' });
    await panel.getByLabel('Name', { exact: true }).fill('Renamed group');
    await panel.getByRole('button', { name: 'Save' }).click();
    await eventually(
      async () => (await server.api.get(`/api/v2/groups/${created.body.public_id}/`)).body.name === 'Renamed group',
      'the group renamed',
    );
    // the source it was created with stays
    assert.equal((await server.api.get(`/api/v2/groups/${created.body.public_id}/`)).body.source, 'hr');
    await page.getByRole('heading', { level: 1, name: 'Renamed group' }).waitFor();
  });

  it('creates a webhook endpoint, sends a test ping to a local receiver and shows the delivery', async () => {
    const page = await adminPage();
    await openPage(page, 'Webhooks');
    await page.getByText('New endpoint').click();
    const url = receiver.url('/console-ping');
    await page.getByLabel('URL', { exact: true }).fill(url);
    await page.getByLabel('Events', { exact: true }).fill('article.*');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    // the signing secret is shown once
    await page.getByText("The endpoint's signing secret.").waitFor();

    await page.getByRole('button', { name: 'Send test ping' }).click();
    await receiver.waitFor((request) => request.path === '/console-ping');
    // the log shows the delivery once the attempt is recorded; reopening the endpoint reads it again
    await eventually(async () => {
      if (await page.getByRole('cell', { name: 'succeeded' }).count()) return true;
      await page.reload();
      await page.getByRole('heading', { level: 1, name: `Endpoint ${url}` }).waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      return (await page.getByRole('cell', { name: 'succeeded' }).count()) > 0;
    }, 'the delivery in the log');
    await assertAccessible(page, 'Webhooks with a delivery');
    await screenshot(page, 'webhooks-delivery');
  });

  it('saves a report with an RQL error, shows where it is, and shows the results once fixed', async () => {
    const page = await adminPage();
    await openPage(page, 'Reports');
    await page.getByLabel('Report name').fill('Admins');
    await page.getByLabel('Resource').selectOption('users');
    const expression = page.getByLabel('RQL expression');
    await expression.fill('eq(role,admin');
    await page.getByRole('button', { name: 'Create report' }).click();
    await eventually(async () => (await expression.getAttribute('aria-invalid')) === 'true', 'the expression marked invalid');
    assert.match(await descriptionOf(expression), /\S/);
    await page.getByLabel('Where the expression is wrong').waitFor();
    await assertAccessible(page, 'Reports with an RQL error');
    await screenshot(page, 'reports-rql-error');

    await expression.fill('eq(role,admin)');
    await page.getByRole('button', { name: 'Create report' }).click();
    await page.getByRole('heading', { level: 2, name: 'Admins' }).waitFor();
    const results = page.getByRole('table', { name: 'Results' });
    await results.getByRole('cell', { name: 'admin@example.com' }).waitFor();
    await assertAccessible(page, 'Reports with results');
    await screenshot(page, 'reports-results');
  });

  it('imports a CSV with bad rows and shows the report, failed rows first', async () => {
    const file = join(tempDir(), 'people.csv');
    const good = uniqueEmail('imported');
    writeFileSync(file, `email,name\n${good},Imported Person\nnot-an-email,Broken Row\n,No Email\n`);
    const page = await adminPage();
    await openPage(page, 'Imports');
    await page.getByLabel('What the file holds').selectOption('users');
    await page.getByLabel('CSV file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();

    const detail = page.getByRole('region', { name: 'Import people.csv' });
    await detail.getByText('3 of 3 rows', { exact: false }).waitFor();
    const report = detail.getByRole('table', { name: 'Import report' });
    await report.getByRole('cell', { name: good }).waitFor();
    const rows = await report.locator('tbody tr').allTextContents();
    assert.equal(rows.length, 3, rows.join('\n'));
    assert.match(rows[0]!, /failed/);
    assert.match(rows[1]!, /failed/);
    assert.doesNotMatch(rows[2]!, /failed/);
    assert.equal((await server.api.get(`/api/v2/users/?search=${encodeURIComponent(good)}`)).body.data.length, 1);
    await assertAccessible(page, 'Imports with a report');
    await screenshot(page, 'imports-report');
  });
});
