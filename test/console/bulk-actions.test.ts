/**
 * Row selection with bulk actions on the Users, Content and Enrollments lists, done as a team
 * lead would in Chromium against a real server: boxes per row and for the page, the bar with the
 * count, a confirmation before anything destructive, the outcome with every failure named, and
 * the API checked afterwards. No id is typed anywhere.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { created, uniqueEmail, useServer } from '../helpers/server.ts';
import { assertAccessible, descriptionOf, eventually, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console bulk actions', () => {
  const server = useServer();
  const browser = useBrowser();
  const run = `${process.pid}${Date.now() % 100000}`;

  const made = (path: string, body: unknown) => created(server.api, path, body);

  async function adminPage(width?: number, colorScheme?: 'light' | 'dark'): Promise<Page> {
    const page = await browser.newPage(width, colorScheme);
    await signInWithToken(page, server.url, server.adminToken);
    return page;
  }

  async function search(page: Page, text: string): Promise<void> {
    await page.getByRole('searchbox', { name: 'Search' }).fill(text);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  }

  async function pick(scope: Locator | Page, label: string, typed: string, option: string | RegExp): Promise<void> {
    const box = scope.getByRole('combobox', { name: label });
    await box.fill('');
    await box.pressSequentially(typed);
    await scope.getByRole('listbox', { name: label }).getByRole('option', { name: option }).click();
  }

  async function noOverflow(page: Page, what: string): Promise<void> {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${what}: ${overflow} px wider than the window`);
  }

  const bar = (page: Page, list: string) => page.getByRole('region', { name: `Bulk actions on ${list}` });
  const selectAll = (page: Page, table: string) =>
    page.getByRole('table', { name: table }).getByRole('checkbox', { name: 'Select all on this page' });
  const indeterminate = (box: Locator) => box.evaluate((element) => (element as HTMLInputElement).indeterminate);

  it('deactivates two of three selected users (keyboard only), selects the page and clears it, and a new filter clears the selection', async () => {
    const people = ['Ann', 'Bob', 'Cid'].map((first) => ({
      name: `Bulk${run} ${first}`,
      email: uniqueEmail(`bulk${first.toLowerCase()}`),
    }));
    const users: { public_id: string }[] = [];
    for (const person of people) users.push(await made('/api/v2/users/', person));
    const page = await adminPage();
    await openPage(page, 'Users');
    await search(page, `Bulk${run}`);
    const box = (index: number) => page.getByRole('checkbox', { name: `Select ${people[index]!.name} (${people[index]!.email})` });
    await box(2).waitFor();
    assert.equal(await bar(page, 'users').count(), 0, 'no bar before anything is selected');

    // keyboard only: Space ticks a focused box, Enter presses the action, focus lands on the confirmation
    await box(0).focus();
    await page.keyboard.press('Space');
    await box(1).focus();
    await page.keyboard.press('Space');
    assert.ok(await box(0).isChecked());
    assert.ok(await box(1).isChecked());
    assert.equal(await box(2).isChecked(), false);
    assert.ok(await indeterminate(selectAll(page, 'Users')), 'the header box is indeterminate with some rows selected');
    await bar(page, 'users').getByText('2 selected').waitFor();
    await bar(page, 'users').getByRole('button', { name: 'Deactivate' }).focus();
    await page.keyboard.press('Enter');
    const yes = bar(page, 'users').getByRole('button', { name: 'Yes, deactivate 2 users' });
    const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
    await eventually(() => focused(yes), 'focus on the confirmation');
    // Esc backs out to the action's button, and the selection stays
    await page.keyboard.press('Escape');
    await eventually(async () => (await yes.count()) === 0, 'the confirmation closed by Esc');
    assert.ok(await focused(bar(page, 'users').getByRole('button', { name: 'Deactivate' })), 'focus back on Deactivate');
    assert.equal(new URL(page.url()).pathname.endsWith('/users'), true, 'Esc did not leave the page');
    await bar(page, 'users').getByText('2 selected').waitFor();
    await page.keyboard.press('Enter');
    await eventually(() => focused(yes), 'focus on the confirmation again');
    await bar(page, 'users').getByText('Deactivate 2 users? Their tokens stop working.').waitFor();
    await assertAccessible(page, 'Users with a confirmation open');
    await screenshot(page, 'bulk-users-confirm');
    await page.keyboard.press('Enter');

    await page.getByRole('status').filter({ hasText: 'Deactivated: 2 of 2 users.' }).waitFor();
    const active = async () => {
      const states = [];
      for (const user of users) states.push((await server.api.get(`/api/v2/users/${user.public_id}/`)).body.is_active);
      return states;
    };
    assert.deepEqual(await active(), [false, false, true], 'the two selected are inactive, the third untouched');
    // the list reloads with the new state and an empty selection
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('row', { name: new RegExp(people[0]!.name) })
      .getByText('deactivated')
      .waitFor();
    assert.equal(await bar(page, 'users').count(), 0, 'the selection is cleared after the action');
    assert.equal(await box(0).isChecked(), false);

    // select all on the page, then clear
    await selectAll(page, 'Users').check();
    await bar(page, 'users').getByText('3 selected').waitFor();
    for (const index of [0, 1, 2]) assert.ok(await box(index).isChecked());
    assert.equal(await indeterminate(selectAll(page, 'Users')), false);
    await assertAccessible(page, 'Users with every row selected');
    await bar(page, 'users').getByRole('button', { name: 'Clear selection' }).click();
    assert.equal(await bar(page, 'users').count(), 0);
    for (const index of [0, 1, 2]) assert.equal(await box(index).isChecked(), false);
    assert.equal(await selectAll(page, 'Users').isChecked(), false);

    // reactivate one, and a filter change clears what is selected
    await box(0).check();
    await bar(page, 'users').getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('status').filter({ hasText: 'Reactivated: 1 of 1 user.' }).waitFor();
    assert.deepEqual(await active(), [true, false, true]);
    await box(2).check();
    await bar(page, 'users').getByText('1 selected').waitFor();
    await page.getByLabel('Active', { exact: true }).selectOption('true');
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    assert.equal(await bar(page, 'users').count(), 0, 'a new filter starts an empty selection');
    assert.equal(await box(2).isChecked(), false);
  });

  it('names the row that fails and why (the last active admin cannot be deactivated), accessible in dark mode', async () => {
    const page = await adminPage(1280, 'dark');
    const me = (await server.api.get('/api/v2/me/')).body.user;
    await openPage(page, 'Users');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await selectAll(page, 'Users').check();
    await bar(page, 'users').getByRole('button', { name: 'Deactivate' }).click();
    await bar(page, 'users')
      .getByRole('button', { name: /^Yes, deactivate/ })
      .click();
    const report = page.getByRole('alert').filter({ hasText: '1 failed:' });
    await report.waitFor();
    const failures = (await report.getByRole('listitem').allTextContents()).map((text) => text.trim());
    assert.deepEqual(failures, [`${me.name} (${me.email}): This is the last active admin; make another user an admin first.`]);
    await assertAccessible(page, 'Users in dark mode with a failed row reported');
    assert.equal((await server.api.get(`/api/v2/users/${me.public_id}/`)).body.is_active, true);
    await report.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await report.count(), 0);
  });

  it('archives two selected content items, then assigns two others to a group picked by name', async () => {
    const items: { public_id: string }[] = [];
    for (const n of [1, 2, 3, 4, 5]) items.push(await made('/api/v2/articles/', { name: `Bulk${run} article ${n}` }));
    const members = [];
    for (const first of ['Dee', 'Eve'])
      members.push(await made('/api/v2/users/', { name: `Bulk${run} ${first}`, email: uniqueEmail('member') }));
    const group = await made('/api/v2/groups/', { name: `Bulk${run} team` });
    await made('/api/v2/groups/', { name: `Bulk${run} empty` });
    await made(`/api/v2/groups/${group.public_id}/members/`, { member_ids: members.map((member) => member.public_id) });

    const page = await adminPage();
    await openPage(page, 'Content');
    await search(page, `Bulk${run}`);
    const box = (n: number) => page.getByRole('checkbox', { name: `Select Bulk${run} article ${n}` });
    await box(1).check();
    await box(2).check();
    await box(3).check();
    await bar(page, 'content').getByRole('button', { name: 'Archive', exact: true }).click();
    // the third is deleted by someone else before the archive is confirmed: its row says why, the others are archived
    const deleted = await server.api.delete(`/api/v2/content-items/${items[2]!.public_id}/`);
    assert.equal(deleted.status, 204, deleted.text);
    await bar(page, 'content').getByRole('button', { name: 'Yes, archive 3 items' }).click();
    const report = page.getByRole('alert').filter({ hasText: 'Archived: 2 of 3 items. 1 failed:' });
    await report.waitFor();
    const failures = (await report.getByRole('listitem').allTextContents()).map((text) => text.trim());
    assert.equal(failures.length, 1);
    assert.match(failures[0]!, new RegExp(`^Bulk${run} article 3: \\S`), 'the failed row is named, with the reason');
    await assertAccessible(page, 'Content with a failed row reported');
    await screenshot(page, 'bulk-content-failure');
    const archived = async (item: { public_id: string }) =>
      (await server.api.get(`/api/v2/content-items/${item.public_id}/`)).body.is_archived;
    assert.equal(await archived(items[0]!), true);
    assert.equal(await archived(items[1]!), true);
    assert.equal(await archived(items[3]!), false, 'an item not selected stays as it was');

    await box(4).check();
    await box(5).check();
    await bar(page, 'content').getByRole('button', { name: 'Assign to a group…' }).click();
    // a group nobody is in would assign nothing: said beside the picker, nothing sent
    await pick(bar(page, 'content'), 'Group', `Bulk${run} emp`, new RegExp(`Bulk${run} empty`));
    await bar(page, 'content').getByRole('button', { name: 'Assign 2 items' }).click();
    const groupBox = bar(page, 'content').getByRole('combobox', { name: 'Group' });
    await eventually(async () => (await descriptionOf(groupBox)).includes('This group has no members yet'), 'the empty group refused');
    assert.equal(await groupBox.getAttribute('aria-invalid'), 'true');
    assert.equal((await server.api.get('/api/v2/bulk-jobs/?kind=assignments')).body.meta.total_count, 0, 'no job was started');
    await pick(bar(page, 'content'), 'Group', `Bulk${run} te`, new RegExp(`Bulk${run} team`));
    await assertAccessible(page, 'Content with the assign-to-group form open');
    await screenshot(page, 'bulk-content-assign');
    await bar(page, 'content').getByRole('button', { name: 'Assign 2 items' }).click();
    const started = page.getByRole('status').filter({ hasText: 'Assigning in the background: 2 of 2 items.' });
    await started.getByText('4 assignments for 2 members').waitFor();

    const assignedTo = async (item: { public_id: string }) =>
      (await server.api.get(`/api/v2/assignments/?content_item=${item.public_id}`)).body.data
        .map((a: { user: { public_id: string } }) => a.user.public_id)
        .sort();
    const memberIds = members.map((member) => member.public_id).sort();
    await eventually(
      async () => JSON.stringify(await assignedTo(items[4]!)) === JSON.stringify(memberIds),
      'the job to assign the fifth item',
    );
    assert.deepEqual(await assignedTo(items[3]!), memberIds);
    assert.deepEqual(await assignedTo(items[0]!), [], 'an item not selected is not assigned');

    // the job's own page, from the report's link
    await started.getByRole('link', { name: 'follow the bulk job' }).click();
    await page.getByText('completed').first().waitFor();
  });

  it('drops a selected enrollment at phone width, and the waitlisted person is promoted', async () => {
    const [first, second, third] = await Promise.all(
      ['Fay', 'Gus', 'Hal'].map((name) =>
        made('/api/v2/users/', { name: `Bulk${run} ${name}`, email: uniqueEmail(`enr${name.toLowerCase()}`) }),
      ),
    );
    const event = async (name: string, limits: Record<string, number>) =>
      made('/api/v2/events/', { name, is_local: true, timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }], ...limits });
    const full = await event(`Bulk${run} full workshop`, { enrollment_limit: 1, wait_list_limit: 5 });
    const enroll = (user: { public_id: string }, on: { public_id: string }) =>
      made('/api/v2/enrollments/', {
        user_id: user.public_id,
        event_id: on.public_id,
        attendance_method: 'in_person',
        accept_waitlist: true,
      });
    const seated = await enroll(first, full);
    const waiting = await enroll(second, full);
    assert.equal(waiting.status, 'waitlisted');
    const later = await enroll(third, full);
    assert.equal(later.status, 'waitlisted');

    const page = await adminPage(390);
    await openPage(page, 'Enrollments');
    await pick(page, 'Event', `Bulk${run} full`, new RegExp(`Bulk${run} full workshop`));
    const table = page.getByRole('table', { name: 'Enrollments' });
    const box = (user: { email: string }, on: string) => table.getByRole('checkbox', { name: `Select ${user.email} at ${on}` });
    await box(first, `Bulk${run} full workshop`).check();
    await bar(page, 'enrollments').getByRole('button', { name: 'Drop' }).click();
    await noOverflow(page, 'Enrollments at 390 px with the confirmation open');
    await assertAccessible(page, 'Enrollments with a confirmation open');
    await screenshot(page, 'bulk-enrollments-confirm');
    await bar(page, 'enrollments').getByRole('button', { name: 'Yes, drop 1 enrollment' }).click();
    await page.getByRole('status').filter({ hasText: 'Dropped: 1 of 1 enrollment.' }).waitFor();
    const statusOf = async (enrollment: { public_id: string }) =>
      (await server.api.get(`/api/v2/enrollments/${enrollment.public_id}/`)).body.status;
    assert.equal(await statusOf(seated), 'dropped');
    assert.equal(await statusOf(waiting), 'enrolled', 'the first on the wait list took the seat');
    assert.equal(await statusOf(later), 'waitlisted');

    // the event's own page offers the same selection on its Enrolled list, and its wait list follows a drop
    await table
      .getByRole('link', { name: `Bulk${run} full workshop` })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: `Bulk${run} full workshop` }).waitFor();
    const enrolled = page.getByRole('table', { name: 'Enrolled' });
    await enrolled.getByRole('checkbox', { name: `Select ${second.email} at Bulk${run} full workshop` }).check();
    await bar(page, 'enrolled').getByRole('button', { name: 'Drop' }).click();
    await bar(page, 'enrolled').getByRole('button', { name: 'Yes, drop 1 enrollment' }).click();
    await enrolled.getByRole('link', { name: third.name }).waitFor();
    await page.getByRole('table', { name: 'Wait list' }).getByText('Nobody is waiting.', { exact: false }).waitFor();
    assert.equal(await statusOf(waiting), 'dropped');
    assert.equal(await statusOf(later), 'enrolled');
    await noOverflow(page, 'an event page at 390 px after a bulk drop');
    await assertAccessible(page, 'an event page after a bulk drop');

    // and a person's page offers it on their enrollments
    await enrolled.getByRole('link', { name: third.name }).click();
    await page.getByRole('heading', { level: 1, name: third.name }).waitFor();
    await page
      .getByRole('table', { name: 'Their enrollments' })
      .getByRole('checkbox', { name: `Select ${third.email} at Bulk${run} full workshop` })
      .check();
    await bar(page, 'their enrollments').getByText('1 selected').waitFor();
    await assertAccessible(page, "a person's page with an enrollment selected");
  });

  it('leaves out rows already as the action would leave them, and says how many: users, content, enrollments', async () => {
    // every write the console sends, so a skipped row is proven never to reach the API
    const page = await adminPage();
    const writes: { method: string; path: string }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET') return;
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/v2/')) writes.push({ method: request.method(), path });
    });
    const sent = (method: string, path: RegExp) => writes.filter((write) => write.method === method && path.test(write.path));

    // users: one of three is already inactive
    const people = [];
    for (const first of ['Fay', 'Gus', 'Hal'])
      people.push(await made('/api/v2/users/', { name: `Skip${run} ${first}`, email: uniqueEmail(`skip${first.toLowerCase()}`) }));
    const off = await server.api.patch(`/api/v2/users/${people[1].public_id}/`, { is_active: false });
    assert.equal(off.status, 200, off.text);
    await openPage(page, 'Users');
    await search(page, `Skip${run}`);
    await page.getByRole('checkbox', { name: `Select ${people[2].name} (${people[2].email})` }).waitFor();
    await selectAll(page, 'Users').check();
    await bar(page, 'users').getByText('3 selected').waitFor();
    await bar(page, 'users').getByRole('button', { name: 'Deactivate' }).click();
    await bar(page, 'users').getByText('Deactivate 2 users? Their tokens stop working. 1 was already inactive.').waitFor();
    await bar(page, 'users').getByRole('button', { name: 'Yes, deactivate 2 users' }).click();
    await page.getByRole('status').filter({ hasText: 'Deactivated: 2 of 2 users. 1 was already inactive.' }).waitFor();
    const patched = sent('PATCH', /^\/api\/v2\/users\//).map((write) => write.path);
    assert.deepEqual(patched.sort(), [people[0], people[2]].map((user) => `/api/v2/users/${user.public_id}`).sort());
    for (const user of people) assert.equal((await server.api.get(`/api/v2/users/${user.public_id}/`)).body.is_active, false);
    await assertAccessible(page, 'Users with skipped rows reported');
    await screenshot(page, 'bulk-users-skipped');

    // content: Archive sends only the active item; Unarchive on an active item sends nothing
    const items = [];
    for (const n of [1, 2, 3]) items.push(await made('/api/v2/articles/', { name: `Skip${run} article ${n}` }));
    const archived = await server.api.post('/api/v2/content-items/bulk/archive', { items: [{ public_id: items[0].public_id }] });
    assert.equal(archived.status, 200, archived.text);
    await openPage(page, 'Content');
    await search(page, `Skip${run}`);
    const itemBox = (n: number) => page.getByRole('checkbox', { name: `Select Skip${run} article ${n}` });
    await itemBox(1).check();
    await itemBox(2).check();
    const archiveAnswer = page
      .waitForResponse((response) => response.url().endsWith('/content-items/bulk/archive'))
      .then(async (response) => {
        const { data } = await response.json();
        return { succeeded: data.succeeded.length, failed: data.failed.length };
      });
    await bar(page, 'content').getByRole('button', { name: 'Archive', exact: true }).click();
    await bar(page, 'content').getByRole('button', { name: 'Yes, archive 1 item' }).click();
    await page.getByRole('status').filter({ hasText: 'Archived: 1 of 1 item. 1 was already archived.' }).waitFor();
    // Chromium does not show a fetch body to the test, so the batch's answer tells what was sent: one item
    assert.equal(sent('POST', /\/content-items\/bulk\/archive$/).length, 1);
    assert.deepEqual(await archiveAnswer, { succeeded: 1, failed: 0 });
    await itemBox(3).waitFor();
    await itemBox(3).check();
    await bar(page, 'content').getByRole('button', { name: 'Unarchive' }).click();
    await page.getByRole('status').filter({ hasText: 'Nothing to change: 1 was already active.' }).waitFor();
    assert.equal(sent('POST', /\/content-items\/bulk\/unarchive$/).length, 0, 'nothing to unarchive, so no request');
    const archivedNow = [];
    for (const item of items) archivedNow.push((await server.api.get(`/api/v2/content-items/${item.public_id}/`)).body.is_archived);
    assert.deepEqual(archivedNow, [true, true, false]);

    // enrollments: one of two is already dropped
    const learners = [];
    for (const first of ['Ida', 'Jon'])
      learners.push(await made('/api/v2/users/', { name: `Skip${run} ${first}`, email: uniqueEmail(`skip${first.toLowerCase()}`) }));
    const workshop = await made('/api/v2/events/', {
      name: `Skip${run} workshop`,
      is_local: true,
      enrollment_limit: 5,
      timeslots: [{ starts_at: '2030-07-01T09:00:00Z', duration: 'PT1H' }],
    });
    const enrollments = [];
    for (const learner of learners)
      enrollments.push(
        await made('/api/v2/enrollments/', { user_id: learner.public_id, event_id: workshop.public_id, attendance_method: 'in_person' }),
      );
    const dropped = await server.api.post(`/api/v2/enrollments/${enrollments[0].public_id}/drop/`, {});
    assert.equal(dropped.status, 200, dropped.text);
    await openPage(page, 'Enrollments');
    await pick(page, 'Event', `Skip${run} work`, new RegExp(`Skip${run} workshop`));
    await page
      .getByRole('table', { name: 'Enrollments' })
      .getByRole('checkbox', { name: `Select ${learners[1].email} at Skip${run} workshop` })
      .waitFor();
    await selectAll(page, 'Enrollments').check();
    await bar(page, 'enrollments').getByText('2 selected').waitFor();
    await bar(page, 'enrollments').getByRole('button', { name: 'Drop' }).click();
    await bar(page, 'enrollments').getByRole('button', { name: 'Yes, drop 1 enrollment' }).click();
    await page.getByRole('status').filter({ hasText: 'Dropped: 1 of 1 enrollment. 1 was already dropped.' }).waitFor();
    assert.deepEqual(
      sent('POST', /\/drop$/).map((write) => write.path),
      [`/api/v2/enrollments/${enrollments[1].public_id}/drop`],
    );
    assert.equal((await server.api.get(`/api/v2/enrollments/${enrollments[1].public_id}/`)).body.status, 'dropped');
  });

  it('removes selected members from a group in one request, and keeps the others', async () => {
    const page = await adminPage();
    let deletes = 0;
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && /\/api\/v2\/groups\/[^/]+\/members$/.test(new URL(request.url()).pathname)) deletes++;
    });
    const members: { public_id: string; name: string; email: string }[] = [];
    for (const first of ['Kim', 'Lou', 'Max'])
      members.push(await made('/api/v2/users/', { name: `Team${run} ${first}`, email: uniqueEmail(`team${first.toLowerCase()}`) }));
    const group = await made('/api/v2/groups/', { name: `Team${run} crew` });
    await made(`/api/v2/groups/${group.public_id}/members/`, { member_ids: members.map((member) => member.public_id) });

    await page.goto(`${server.url}/console/groups/${group.public_id}`);
    const table = page.getByRole('table', { name: 'Members' });
    const box = (index: number) => table.getByRole('checkbox', { name: `Select ${members[index]!.name} (${members[index]!.email})` });
    await box(2).waitFor();
    await box(0).check();
    await box(2).check();
    await bar(page, 'members').getByText('2 selected').waitFor();
    await bar(page, 'members').getByRole('button', { name: 'Remove from group' }).click();
    await assertAccessible(page, 'Group members with a confirmation open');
    await bar(page, 'members').getByRole('button', { name: 'Yes, remove from group 2 members' }).click();
    await page.getByRole('status').filter({ hasText: 'Removed: 2 of 2 members.' }).waitFor();
    assert.equal(deletes, 1, 'one request for both');
    const left = (await server.api.get(`/api/v2/groups/${group.public_id}/members/`)).body.data.map(
      (user: { public_id: string }) => user.public_id,
    );
    assert.deepEqual(left, [members[1]!.public_id]);
    // the list and the page's count follow
    await box(0).waitFor({ state: 'detached' });
    await page.getByText('1 members').waitFor();
    assert.equal(await bar(page, 'members').count(), 0);
    await screenshot(page, 'bulk-group-members-removed');

    // the same page in dark, a member selected and the confirmation open
    const dark = await adminPage(1280, 'dark');
    await dark.goto(`${server.url}/console/groups/${group.public_id}`);
    await dark
      .getByRole('table', { name: 'Members' })
      .getByRole('checkbox', { name: `Select ${members[1]!.name} (${members[1]!.email})` })
      .check();
    await bar(dark, 'members').getByRole('button', { name: 'Remove from group' }).click();
    await bar(dark, 'members').getByRole('button', { name: 'Yes, remove from group 1 member' }).waitFor();
    await assertAccessible(dark, 'Group members in dark mode, a removal waiting for its confirmation');
  });
});
