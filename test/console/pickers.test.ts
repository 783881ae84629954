/**
 * The pickers: every relation is chosen by name (or a pasted email), never by typing an id. A
 * person adds three people to a group (one of them with the keyboard alone), assigns a course to
 * a group and sees the assignments listed, pastes an email, and meets the empty state for a name
 * nobody has; the combobox carries the WAI-ARIA roles and states a screen reader needs, and it
 * searches from the first keystroke, one search at a time, ending on the whole text typed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { assertAccessible, eventually, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('console: pickers', () => {
  const server = useServer();
  const browser = useBrowser();
  const run = `${process.pid}${Date.now() % 100000}`;

  async function adminPage(): Promise<Page> {
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    return page;
  }

  async function user(name: string) {
    const made = await server.api.post('/api/v2/users/', { email: uniqueEmail(name.split(' ')[0]!.toLowerCase()), name });
    assert.equal(made.status, 201, made.text);
    return made.body as { public_id: string; email: string; name: string };
  }

  async function group(name: string, members: string[] = []) {
    const made = await server.api.post('/api/v2/groups/', { name });
    assert.equal(made.status, 201, made.text);
    if (members.length) {
      const added = await server.api.post(`/api/v2/groups/${made.body.public_id}/members/`, { member_ids: members });
      assert.ok(added.status < 300, added.text);
    }
    return made.body as { public_id: string; name: string };
  }

  async function openGroup(page: Page, name: string): Promise<Locator> {
    await openPage(page, 'Groups');
    await page.getByRole('link', { name, exact: true }).click();
    const panel = page.getByRole('region', { name });
    await panel.waitFor();
    return panel;
  }

  /** Types into a combobox key by key, as a person does (never `fill` with an id). */
  async function typeInto(box: Locator, text: string): Promise<void> {
    assert.doesNotMatch(text, UUID, 'a test typed an id');
    await box.focus();
    await box.pressSequentially(text);
  }

  it('adds three people to a group by typing their names, one with the keyboard alone', async () => {
    const names = [`Quill${run} Ada`, `Quill${run} Brook`, `Quill${run} Cole`];
    const people = await Promise.all(names.map(user));
    const target = await group(`Pickers group ${run}`);
    const page = await adminPage();
    const panel = await openGroup(page, target.name);
    const box = panel.getByRole('combobox', { name: 'People to add' });

    // keyboard alone: type, ↓ to the option, Enter picks it
    await typeInto(box, `Quill${run} Ada`);
    const listbox = panel.getByRole('listbox', { name: 'People to add' });
    await listbox.getByRole('option', { name: new RegExp(names[0]!) }).waitFor();
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    await box.press('Enter');
    await panel.getByRole('button', { name: `Remove ${names[0]}` }).waitFor();
    assert.equal(await box.inputValue(), '', 'the box empties for the next name');

    // the mouse for the other two
    for (const name of names.slice(1)) {
      await typeInto(box, name.split(' ')[1]!);
      await listbox.getByRole('option', { name: new RegExp(name) }).click();
      await panel.getByRole('button', { name: `Remove ${name}` }).waitFor();
    }
    await assertAccessible(page, 'Groups with a picker holding three people');
    await screenshot(page, 'pickers-group-members');
    await panel.getByRole('button', { name: 'Add members' }).click();
    await eventually(
      async () => (await server.api.get(`/api/v2/groups/${target.public_id}/`)).body.member_count === 3,
      'three members in the group',
    );
    const members = await server.api.get(`/api/v2/groups/${target.public_id}/members/?page_size=100`);
    assert.deepEqual(
      members.body.data.map((member: { public_id: string }) => member.public_id).sort(),
      people.map((person) => person.public_id).sort(),
    );
    // the form reset: no chips left behind
    await panel.getByRole('button', { name: `Remove ${names[0]}` }).waitFor({ state: 'detached' });
  });

  it('gives the combobox the WAI-ARIA roles and states, and Esc closes only the list', async () => {
    const person = await user(`Aria${run} Person`);
    const target = await group(`Aria group ${run}`);
    const page = await adminPage();
    const panel = await openGroup(page, target.name);
    const box = panel.getByRole('combobox', { name: 'People to add' });
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    assert.equal(await box.getAttribute('aria-autocomplete'), 'list');
    const controls = await box.getAttribute('aria-controls');
    assert.ok(controls);
    const popup = page.locator(`[id="${controls}"]`);
    assert.equal(await popup.getAttribute('role'), 'listbox');
    assert.equal(await box.getAttribute('aria-activedescendant'), null);

    await typeInto(box, `Aria${run}`);
    const option = popup.getByRole('option', { name: new RegExp(`Aria${run} Person`) });
    await option.waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    // the option says who it is: the name and the email
    assert.match((await option.textContent()) ?? '', new RegExp(person.email.replace(/\./g, '\\.')));
    const active = await box.getAttribute('aria-activedescendant');
    assert.ok(active, 'an option is active');
    assert.equal(await option.getAttribute('id'), active);
    assert.equal(await option.getAttribute('aria-selected'), 'true');

    await box.press('Escape');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    assert.equal(await box.getAttribute('aria-activedescendant'), null);
    assert.ok(await panel.isVisible(), 'Esc in an open list closes the list, not the panel');
  });

  it('resolves a pasted email to its person', async () => {
    const person = await user(`Pasted${run} Person`);
    const target = await group(`Paste group ${run}`);
    const page = await adminPage();
    const panel = await openGroup(page, target.name);
    const box = panel.getByRole('combobox', { name: 'People to add' });
    await box.fill(person.email);
    const option = panel.getByRole('option', { name: new RegExp(`Pasted${run} Person`) });
    await option.waitFor();
    await box.press('Enter');
    await panel.getByRole('button', { name: `Remove Pasted${run} Person` }).waitFor();
    await panel.getByRole('button', { name: 'Add members' }).click();
    await eventually(
      async () => (await server.api.get(`/api/v2/groups/${target.public_id}/`)).body.member_count === 1,
      'the pasted person in the group',
    );
  });

  it('shows an empty state for a name nobody has, and sends nothing', async () => {
    const target = await group(`Empty group ${run}`);
    const page = await adminPage();
    const panel = await openGroup(page, target.name);
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
    });
    const box = panel.getByRole('combobox', { name: 'People to add' });
    await typeInto(box, `Nobody${run} Here`);
    const empty = panel.getByRole('option', { name: `No user matches “Nobody${run} Here”.` });
    await empty.waitFor();
    assert.equal(await empty.getAttribute('aria-disabled'), 'true');
    await box.press('Enter');
    assert.equal(await panel.locator('input[type=hidden][name=member_ids]').count(), 0, 'nothing chosen');
    await panel.getByRole('button', { name: 'Add members' }).click();
    await eventually(async () => (await box.getAttribute('aria-invalid')) === 'true', 'the picker marked invalid');
    await assertAccessible(page, 'Groups with an empty picker');
    assert.deepEqual(writes, [], 'nothing was sent');
    assert.equal((await server.api.get(`/api/v2/groups/${target.public_id}/`)).body.member_count, 0);
  });

  it('assigns a course to a group by picking both, and lists the assignments', async () => {
    const [first, second] = await Promise.all([user(`Learner${run} One`), user(`Learner${run} Two`)]);
    await group(`Course team ${run}`, [first!.public_id, second!.public_id]);
    const course = await server.api.post('/api/v2/courses/', { name: `Safety course ${run}` });
    assert.equal(course.status, 201, course.text);
    const page = await adminPage();
    await openPage(page, 'Assignments');
    await page.getByText('Assign content').click();
    const form = page.locator('details[open] form');
    await typeInto(form.getByRole('combobox', { name: 'Content' }), `Safety course ${run}`);
    await form.getByRole('option', { name: new RegExp(`Safety course ${run}.*course`) }).click();
    await typeInto(form.getByRole('combobox', { name: 'Groups' }), `Course team ${run}`);
    await form.getByRole('option', { name: new RegExp(`Course team ${run}`) }).click();
    await form.getByRole('button', { name: 'Assign', exact: true }).click();
    await eventually(
      async () => (await server.api.get(`/api/v2/assignments/?content_item=${course.body.public_id}`)).body.meta?.total_count === 2,
      'two assignments made',
    );

    // the list, filtered by the same picker, shows both people
    const filters = page.getByRole('search', { name: 'Filter assignments' });
    const filter = filters.getByRole('combobox', { name: 'Content' });
    await typeInto(filter, `Safety course ${run}`);
    await filters.getByRole('option', { name: new RegExp(`Safety course ${run}`) }).click();
    await eventually(
      async () => new URL(page.url()).searchParams.get('content_item') === course.body.public_id,
      'the filter in the address',
    );
    const table = page.getByRole('table', { name: 'Assignments' });
    await table.getByRole('cell', { name: first!.email, exact: true }).waitFor();
    await table.getByRole('cell', { name: second!.email, exact: true }).waitFor();
    await assertAccessible(page, 'Assignments filtered with a picker');
    await screenshot(page, 'pickers-assignments');
    // after a reload the filter shows the course by name, not its id
    await page.reload();
    await eventually(
      async () => (await filters.getByRole('combobox', { name: 'Content' }).inputValue()) === `Safety course ${run}`,
      'the filter named',
    );
  });

  it('searches on each keystroke but one search at a time, and shows the options of the whole text', async () => {
    const wanted = await user(`Typist${run} Zelda`);
    await user(`Typist${run} Other`);
    const target = await group(`Typing group ${run}`);
    const page = await adminPage();
    const panel = await openGroup(page, target.name);
    // every user search answered 80 ms late, so keys come faster than answers
    let running = 0;
    let most = 0;
    const searched: string[] = [];
    await page.route(
      (url) => url.pathname.startsWith('/api/v2/users') && url.searchParams.has('search'),
      async (route) => {
        running++;
        most = Math.max(most, running);
        searched.push(new URL(route.request().url()).searchParams.get('search')!);
        const response = await route.fetch();
        await new Promise((resolve) => setTimeout(resolve, 80));
        running--;
        await route.fulfill({ response });
      },
    );
    const text = `typist${run} zel`;
    await typeInto(panel.getByRole('combobox', { name: 'People to add' }), text);
    const list = panel.getByRole('listbox', { name: 'People to add' });
    await list.getByRole('option', { name: new RegExp(wanted.name) }).waitFor();
    await eventually(async () => searched.at(-1) === text && running === 0, 'the last search, of the whole text');
    assert.equal(await list.getByRole('option', { name: new RegExp(`Typist${run} Other`) }).count(), 0, 'options of an earlier text');
    // no pause waited out: the first key's text is searched while the rest is still being typed
    assert.equal(searched[0], text[0], `the first search: ${searched.join(' | ')}`);
    assert.equal(most, 1, 'one search at a time');
    assert.ok(searched.length < text.length, `${searched.length} searches for ${text.length} keys: ${searched.join(' | ')}`);
  });
});
