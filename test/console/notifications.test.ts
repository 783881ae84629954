/**
 * The Notifications page (admins) with a real SMTP server: messages sent and skipped, filtered by
 * status and by recipient; and the personal calendar feed made, read by a calendar app and turned off.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { useServer, userWithToken } from '../helpers/server.ts';
import { assertAccessible, eventually, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console Notifications page', () => {
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtpSink();
  });
  after(() => smtp.close());
  const server = useServer(() => ({ args: ['--smtp-url', smtp.url, '--mail-from', 'Learning <learning@example.com>'] }));
  const browser = useBrowser();

  it('lists what was sent and what was skipped, by status and by recipient', async () => {
    const reader = await userWithToken(server, 'user');
    const optedOut = await userWithToken(server, 'user');
    assert.equal((await optedOut.api.patch('/api/v2/me/', { email_notifications: false })).status, 200);
    const article = (await server.api.post('/api/v2/articles/', { name: 'Security handbook' })).body;
    for (const user of [reader.user, optedOut.user]) {
      const assigned = await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: article.public_id });
      assert.equal(assigned.status, 201, assigned.text);
    }
    await smtp.waitFor((message) => message.subject === 'New assignment: Security handbook');
    await eventually(
      async () => (await server.api.get('/api/v2/notifications/?status=sent')).body.meta.total_count === 1,
      'the message to be recorded as sent',
    );

    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Notifications');
    const table = page.getByRole('region', { name: 'Email notifications, newest first table' });
    await table.getByRole('row').filter({ hasText: reader.user.email }).filter({ hasText: 'Sent' }).waitFor();
    await table.getByRole('row').filter({ hasText: optedOut.user.email }).filter({ hasText: 'Skipped (opted out)' }).waitFor();

    await page.getByLabel('Status').selectOption({ label: 'Skipped (opted out)' });
    await eventually(async () => (await table.getByRole('row').filter({ hasText: reader.user.email }).count()) === 0, 'the sent row to go');
    assert.equal(new URL(page.url()).searchParams.get('status'), 'skipped');
    await table.getByRole('row').filter({ hasText: optedOut.user.email }).waitFor();

    await page.getByLabel('Status').selectOption({ label: 'Any' });
    await table.getByRole('button', { name: reader.user.email }).click();
    await page.getByRole('button', { name: "Show everyone's" }).waitFor();
    await eventually(async () => (await table.getByRole('row').filter({ hasText: optedOut.user.email }).count()) === 0, 'the others to go');
    assert.equal(new URL(page.url()).searchParams.get('user'), reader.user.public_id);
    await assertAccessible(page, 'Notifications');
    await screenshot(page, 'notifications-recipient');
  });

  it('makes the signed-in person a calendar feed address a calendar app can read, and turns it off', async () => {
    const learner = await userWithToken(server, 'user');
    const page = await browser.newPage(390);
    page.on('dialog', (dialog) => void dialog.accept());
    await signInWithToken(page, server.url, learner.token);
    await openPage(page, 'Calendar');
    const feed = page.getByRole('region', { name: 'Your calendar feed' });
    await feed.getByRole('button', { name: 'Subscribe in your calendar' }).click();
    const address = (await feed.locator('.secret code').textContent())!;
    const onThisServer = server.url + new URL(address).pathname;
    const calendar = await fetch(onThisServer);
    assert.equal(calendar.status, 200);
    assert.match(calendar.headers.get('content-type') ?? '', /^text\/calendar/);
    assert.match(await calendar.text(), /^BEGIN:VCALENDAR/);
    await assertAccessible(page, 'Calendar with a feed address');
    await screenshot(page, 'calendar-feed');

    await feed.getByRole('button', { name: 'Turn the feed off' }).click();
    await feed.getByText('Your calendar feed is off').waitFor();
    assert.equal((await fetch(onThisServer)).status, 404);
  });
});
