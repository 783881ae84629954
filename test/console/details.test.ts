/**
 * Detail pages: every record has its own address, reached by clicking its name in a list or a
 * mention of it in another list (no id typed anywhere); each page shows what the record is about,
 * is accessible at desktop and phone width with no sideways scrolling, and keeps working when the
 * address is reloaded. And the wait-list task end to end: an event at a new location, two people
 * enrolled for one seat, the first dropped and the second promoted, all on the event's page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { created, uniqueEmail, useServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { accessibilityProblems, assertAccessible, eventually, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('console detail pages', () => {
  const server = useServer({ args: ['--allow-private-webhook-targets', '--webhook-retry-schedule', '1,1,1'] });
  const browser = useBrowser();
  const run = `${process.pid}${Date.now() % 100000}`;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  async function adminPage(width?: number): Promise<Page> {
    const page = await browser.newPage(width);
    await signInWithToken(page, server.url, server.adminToken);
    return page;
  }

  const made = (path: string, body: unknown) => created(server.api, path, body);

  /** An admin's page of the event named `name`, found by searching the Events list for it. */
  async function eventPage(name: string): Promise<Page> {
    const page = await adminPage();
    await openPage(page, 'Events');
    await page.getByLabel('Search').fill(name);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('table', { name: 'Events' }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    return page;
  }

  /** Types into a combobox key by key and picks the option naming `option` (never an id). */
  async function pick(scope: Locator | Page, label: string, typed: string, option: string | RegExp): Promise<void> {
    assert.doesNotMatch(typed, UUID, 'a test typed an id');
    const box = scope.getByRole('combobox', { name: label });
    // a single picker shows the last choice: empty it before typing the next name
    await box.fill('');
    await box.pressSequentially(typed);
    await scope.getByRole('listbox', { name: label }).getByRole('option', { name: option }).click();
  }

  /** The page's one h1 is the record's name, its id is shown, and nothing is wider than the window. */
  async function checkDetailPage(page: Page, title: string, problems: string[]): Promise<void> {
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${title}: one h1`);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('region', { name: title }).getByText(id, { exact: true }).first().waitFor();
    problems.push(...(await accessibilityProblems(page)).map((problem) => `${title}: ${problem}`));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) problems.push(`${title}: ${overflow} px wider than the window`);
  }

  it('opens every detail page from its list and from mentions, and each shows its record', async () => {
    const person = await made('/api/v2/users/', { email: uniqueEmail('detail'), name: `Detail${run} Person` });
    const group = await made('/api/v2/groups/', { name: `Detail${run} group` });
    await made(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [person.public_id] });
    const otherGroup = await made('/api/v2/groups/', { name: `Detail${run} not theirs` });
    const employeeId = `E${run}`;
    assert.equal((await server.api.patch(`/api/v2/users/${person.public_id}/`, { employee_id: employeeId })).status, 200);
    const article = await made('/api/v2/articles/', { name: `Detail${run} article` });
    await made('/api/v2/assignments/', { user_id: person.public_id, content_item_id: article.public_id });
    const series = await made('/api/v2/event-series/', { name: `Detail${run} series` });
    const event = await made('/api/v2/events/', {
      name: `Detail${run} event`,
      event_series_id: series.public_id,
      timeslots: [{ starts_at: '2030-03-01T09:00:00Z', duration: 'PT1H' }],
      enrollment_limit: 10,
    });
    await made('/api/v2/enrollments/', { user_id: person.public_id, event_id: event.public_id, attendance_method: 'in_person' });
    const job = await made('/api/v2/users/bulk/', { users: [{ email: uniqueEmail('detailbulk'), name: 'Bulk Detail' }] });
    const hookUrl = receiver.url(`/detail-${run}`);
    await made('/public_api/v2/webhooks/', { url: hookUrl, events: ['enrollment.*'], is_active: true });

    for (const width of [1280, 390]) {
      const page = await adminPage(width);
      const problems: string[] = [];
      // the helper adds the width to the file name
      const shot = (name: string) => screenshot(page, `detail-${name}`);

      // a user, from the Users list: profile, assignments, enrollments, tokens, audit trail
      await openPage(page, 'Users');
      await page.getByLabel('Search').fill(`Detail${run}`);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('link', { name: person.name, exact: true }).click();
      await checkDetailPage(page, person.name, problems);
      const assignments = page.getByRole('table', { name: 'Their assignments' });
      await assignments.getByRole('link', { name: article.name }).waitFor();
      await page.getByRole('table', { name: 'Their enrollments' }).getByRole('link', { name: event.name }).waitFor();
      await page.getByRole('table', { name: 'Their API tokens' }).waitFor();
      // their groups, each linked to its page (only the groups they are in)
      const theirGroups = page.getByRole('table', { name: 'Groups they are a member of' });
      await theirGroups.getByRole('link', { name: group.name }).waitFor();
      assert.equal(await theirGroups.getByRole('link', { name: otherGroup.name }).count(), 0);
      // their audit trail as lists on the page: the update made to them, with what changed
      const changesTo = page.getByRole('table', { name: `Changes to ${person.name}, newest first` });
      await changesTo.getByRole('row').filter({ hasText: 'user.updated' }).getByText(`employee_id: none → ${employeeId}`).waitFor();
      await changesTo.getByRole('row').filter({ hasText: 'user.created' }).waitFor();
      await page
        .getByRole('region', { name: `Changes ${person.name} made` })
        .getByText('No change recorded.')
        .waitFor();
      await shot('user');
      if (width === 1280) {
        // the whole trail is the audit log viewer, narrowed the same way
        await page.getByRole('link', { name: `All changes to ${person.name} in the audit log` }).click();
        await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
        await page.getByRole('table', { name: 'Audit log entries, newest first' }).getByText(`employee_id: none → ${employeeId}`).waitFor();
        assert.match(page.url(), new RegExp(`resource_id=${person.public_id}`));
        await page.goBack();
        await page.getByRole('heading', { level: 1, name: person.name }).waitFor();
      }
      await theirGroups.getByRole('link', { name: group.name }).waitFor();

      // a mention: the content item named in the person's assignments opens its page
      await assignments.getByRole('link', { name: article.name }).click();
      await checkDetailPage(page, article.name, problems);
      await page.getByRole('heading', { level: 2, name: 'Completion' }).waitFor();
      await page.getByRole('table', { name: 'Its assignments' }).getByRole('link', { name: person.name }).waitFor();
      await page.getByLabel('Name', { exact: true }).waitFor();
      await shot('content');

      // a group, from the person's groups: its members
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: person.name }).waitFor();
      await theirGroups.getByRole('link', { name: group.name }).click();
      await checkDetailPage(page, group.name, problems);
      await page.getByRole('table', { name: 'Members' }).getByRole('link', { name: person.name }).waitFor();
      await shot('group');

      // an event, from the Events list, and its series from the event's page
      await openPage(page, 'Events');
      await page.getByRole('table', { name: 'Events' }).getByRole('link', { name: event.name, exact: true }).click();
      await checkDetailPage(page, event.name, problems);
      await page.getByRole('meter', { name: 'In person seats: 1 of 10 taken' }).waitFor();
      await page.getByRole('table', { name: 'Enrolled' }).getByRole('link', { name: person.name }).waitFor();
      await shot('event');
      await page.getByRole('region', { name: event.name }).getByRole('link', { name: series.name }).click();
      await checkDetailPage(page, series.name, problems);
      await page.getByRole('table', { name: 'Events in this series' }).getByRole('link', { name: event.name }).waitFor();
      await shot('series');

      // a webhook endpoint, from the Webhooks list
      await openPage(page, 'Webhooks');
      await page.getByRole('link', { name: hookUrl, exact: true }).click();
      await checkDetailPage(page, `Endpoint ${hookUrl}`, problems);
      await page.getByRole('table', { name: 'Deliveries' }).waitFor();
      await shot('webhook');

      // a bulk job, from the Bulk jobs list
      await openPage(page, 'Bulk jobs');
      await page.getByRole('link', { name: `users job ${job.id}` }).click();
      await checkDetailPage(page, `Job ${job.id} (users)`, problems);
      await page.getByText('1 of 1 processed · 1 succeeded · 0 failed').waitFor();
      await page.getByRole('table', { name: 'Job items' }).getByRole('link').first().click();
      await checkDetailPage(page, 'Bulk Detail', problems);

      // the address is the page: a reload shows the same record, and Back returns to the job
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Bulk Detail' }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: `Job ${job.id} (users)` }).waitFor();
      assert.deepEqual(problems, [], `problems at ${width} px`);
      await page.close();
    }
  });

  it('creates an event at a new location, waitlists the second of two people, drops the first and sees the second promoted', async () => {
    const first = await made('/api/v2/users/', { email: uniqueEmail('first'), name: `Seat${run} First` });
    const second = await made('/api/v2/users/', { email: uniqueEmail('second'), name: `Seat${run} Second` });
    const page = await adminPage();

    await openPage(page, 'Locations');
    await page.getByText('New location').click();
    await page.getByLabel('Name', { exact: true }).fill(`Seat${run} room`);
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Lisbon');
    await page.getByRole('button', { name: 'Create location' }).click();
    await page.getByRole('region', { name: 'Locations table' }).getByText(`Seat${run} room`).waitFor();

    await openPage(page, 'Events');
    await page.getByText('New event').click();
    await page.getByLabel('Event name').fill(`Seat${run} workshop`);
    await page.getByLabel('Starts at').fill('2030-05-02T10:00');
    await page.getByLabel('Duration').fill('PT2H');
    await pick(page, 'Location', `Seat${run}`, new RegExp(`Seat${run} room`));
    await page.getByLabel('In-person seats').fill('1');
    await page.getByLabel('Wait list places').fill('5');
    await page.getByRole('button', { name: 'Create event' }).click();
    // the new event's own page opens
    const detail = page.getByRole('region', { name: `Seat${run} workshop` });
    await page.getByRole('heading', { level: 1, name: `Seat${run} workshop` }).waitFor();
    await detail.getByText(`Seat${run} room, times in Europe/Lisbon`).waitFor();

    for (const person of [first, second]) {
      // the form stays open after an enrollment, for the next one
      if (!(await detail.getByRole('combobox', { name: 'Person' }).isVisible())) await detail.getByText('Enroll someone').click();
      await pick(detail, 'Person', person.name, new RegExp(person.name));
      if (person === second) await detail.getByRole('checkbox', { name: /wait list/i }).check();
      await detail.getByRole('button', { name: 'Enroll' }).click();
      const list = person === first ? 'Enrolled' : 'Wait list';
      await detail.getByRole('table', { name: list }).getByRole('link', { name: person.name }).waitFor();
    }
    await detail.getByRole('meter', { name: 'In person seats: 1 of 1 taken' }).waitFor();
    await detail.getByRole('meter', { name: 'In person wait list: 1 of 5 taken' }).waitFor();
    await assertAccessible(page, 'an event with a full seat and a wait list');
    await screenshot(page, 'detail-event-waitlist');

    page.once('dialog', (dialog) => void dialog.accept());
    await detail
      .getByRole('table', { name: 'Enrolled' })
      .getByRole('button', { name: new RegExp(`^Drop .*${first.email.replace(/[.+]/g, '\\$&')}`) })
      .click();
    // the second person moves from the wait list to the seat
    await detail.getByRole('table', { name: 'Enrolled' }).getByRole('link', { name: second.name }).waitFor();
    await detail.getByRole('table', { name: 'Wait list' }).getByText('Nobody is waiting.', { exact: false }).waitFor();
    await detail.getByRole('meter', { name: 'In person wait list: 0 of 5 taken' }).waitFor();
    const eventId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const enrollments = (await server.api.get(`/api/v2/enrollments/?event=${eventId}`)).body.data;
    const statusOf = (user: { public_id: string }) =>
      enrollments.find((e: { user: { public_id: string } }) => e.user.public_id === user.public_id)?.status;
    assert.equal(statusOf(first), 'dropped');
    assert.equal(statusOf(second), 'enrolled');
    await screenshot(page, 'detail-event-promoted');
  });

  it('retries a failed webhook delivery from the endpoint page and sees it succeed, with what was sent', async () => {
    const url = receiver.url(`/retry-${run}`);
    const endpoint = await made('/public_api/v2/webhooks/', { url, events: ['enrollment.*'], is_active: true });
    // the receiver refuses until the test says it is back up
    let up = false;
    receiver.respond = () => (up ? { status: 200, body: 'ok' } : { status: 500, body: 'down' });
    const pinged = await server.api.post(`/public_api/v2/webhooks/${endpoint.id}/test/`);
    assert.equal(pinged.status, 202, pinged.text);
    await eventually(async () => {
      const log = await server.api.get(`/public_api/v2/webhooks/${endpoint.id}/deliveries/`);
      const last = log.body.data[0] as { status: string; next_attempt_at: string | null } | undefined;
      return last?.status === 'failed' && !last.next_attempt_at;
    }, 'the delivery to fail with nothing more scheduled');

    const page = await adminPage();
    await openPage(page, 'Webhooks');
    await page.getByRole('link', { name: url, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Endpoint ${url}` }).waitFor();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await log
      .getByRole('button', { name: /^Show delivery/ })
      .first()
      .click();
    const shown = page.getByRole('region', { name: 'Delivery details' });
    assert.match((await shown.getByLabel('Request headers').textContent()) ?? '', /webhook-signature: v1,/);
    assert.match((await shown.getByLabel('Payload').textContent()) ?? '', /msg_[0-9A-Z]{26}/);
    up = true;
    await log
      .getByRole('button', { name: /^Retry delivery/ })
      .first()
      .click();
    await page.getByText(/is being sent again/).waitFor();
    await log.getByRole('cell', { name: 'succeeded' }).waitFor({ timeout: 15_000 });
    await assertAccessible(page, 'an endpoint after a retry');
    await screenshot(page, 'detail-webhook-retried');
  });

  it('edits a series from its page', async () => {
    const series = await made('/api/v2/event-series/', { name: `Edit${run} series` });
    const page = await adminPage();
    await openPage(page, 'Events');
    await page.getByRole('table', { name: 'Event series' }).getByRole('link', { name: series.name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: series.name }).waitFor();
    await page.getByText('Edit series', { exact: true }).click();
    await page.getByLabel('Series name').fill(`Edit${run} renamed`);
    await page.getByLabel('Description').fill('Every first Monday');
    await page.getByRole('button', { name: 'Save series' }).click();
    // the series is read again: the page takes its new name
    await page.getByRole('heading', { level: 1, name: `Edit${run} renamed` }).waitFor();
    const stored = (await server.api.get(`/api/v2/event-series/${series.public_id}/`)).body;
    assert.equal(stored.name, `Edit${run} renamed`);
    assert.equal(stored.description, 'Every first Monday');
  });

  it('edits an event from its page: its name and seats, and only those', async () => {
    const event = await made('/api/v2/events/', {
      name: `Seats${run} event`,
      enrollment_limit: 5,
      timeslots: [{ starts_at: '2030-04-01T09:00:00Z', duration: 'PT1H' }],
    });
    const page = await eventPage(event.name);
    await page.getByText('Edit event', { exact: true }).click();
    await page.getByLabel('Event name').fill(`Seats${run} renamed`);
    await page.getByLabel('In-person seats').fill('12');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // the event is read again: the page takes its new name
    await page.getByRole('heading', { level: 1, name: `Seats${run} renamed` }).waitFor();
    const stored = (await server.api.get(`/api/v2/events/${event.public_id}/`)).body;
    assert.equal(stored.name, `Seats${run} renamed`);
    assert.equal(stored.enrollment_limit, 12);
    assert.equal(stored.timeslots.length, 1);
  });

  it("edits an event's timeslots from its page: changes one and adds another", async () => {
    const event = await made('/api/v2/events/', {
      name: `Slots${run} event`,
      timeslots: [{ starts_at: '2030-03-01T09:00:00Z', duration: 'PT1H' }],
    });
    const page = await eventPage(event.name);
    await page.getByText('Edit timeslots', { exact: true }).click();
    const first = page.getByRole('group', { name: 'Timeslot 1' });
    await first.getByLabel('Starts at').fill('2030-03-02T10:00');
    await first.getByLabel('Duration').fill('PT2H');
    await first.getByLabel('Room').fill('Room B');
    await page.getByRole('group', { name: 'New timeslot' }).getByLabel('Starts at').fill('2030-03-03T09:00');
    await page.getByRole('button', { name: 'Save timeslots' }).click();
    await page.getByText('Room B').first().waitFor();
    const stored = (await server.api.get(`/api/v2/events/${event.public_id}/`)).body;
    assert.deepEqual(
      stored.timeslots.map((slot: { starts_at: string; ends_at: string; rooms_info: string | null }) => [
        slot.starts_at.slice(0, 16),
        slot.ends_at.slice(0, 16),
        slot.rooms_info,
      ]),
      [
        ['2030-03-02T10:00', '2030-03-02T12:00', 'Room B'],
        // the API reads a room left out as none, written back as an empty string
        ['2030-03-03T09:00', '2030-03-03T10:00', ''],
      ],
    );
    await assertAccessible(page, 'an event with its timeslots form open');
  });
});
