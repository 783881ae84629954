/** The audit log viewer: find who changed a user's role, with filters in the address. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uniqueEmail, useServer, userWithToken } from '../helpers/server.ts';
import { assertAccessible, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console Audit log page', () => {
  const server = useServer();
  const browser = useBrowser();

  it("finds who changed a user's role, as field: from → to", async () => {
    const colleague = await userWithToken(server, 'admin');
    const learner = (await server.api.post('/api/v2/users/', { email: uniqueEmail('learner'), name: 'Grace', role: 'user' })).body;
    const changed = await colleague.api.patch(`/api/v2/users/${learner.public_id}/`, { role: 'organizer' });
    assert.equal(changed.status, 200, changed.text);
    // noise: other updates the filters must leave out
    assert.equal((await server.api.patch(`/api/v2/users/${learner.public_id}/`, { name: 'Grace Hopper' })).status, 200);
    assert.equal((await server.api.post('/api/v2/groups/', { name: 'Auditors' })).status, 201);

    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Audit log');
    // the choices are the document's: every action and resource type the API declares, none else
    const declared = (await server.api.get('/api/v2/openapi.json', { token: null })).body.paths['/api/v2/audit-log'].get.parameters;
    const enumOf = (name: string): string[] => declared.find((parameter: { name: string }) => parameter.name === name).schema.enum;
    const choices = (label: string) =>
      page
        .getByLabel(label)
        .locator('option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter(Boolean));
    assert.deepEqual(await choices('Action'), enumOf('action'));
    assert.ok(enumOf('action').includes('calendar_feed.deleted'));
    assert.deepEqual(await choices('Resource type'), enumOf('resource_type'));
    await page.getByLabel('Action').selectOption('user.updated');
    await page.getByLabel('Resource type').selectOption('user');
    await page.getByRole('button', { name: 'Apply' }).click();
    const table = page.getByRole('region', { name: 'Audit log entries, newest first table' });
    const entry = table.getByRole('row').filter({ hasText: 'role: user → organizer' });
    await entry.waitFor();
    assert.equal(await table.getByRole('row').filter({ hasText: 'group.created' }).count(), 0);
    assert.match((await entry.textContent()) ?? '', new RegExp(colleague.user.email.replace(/\./g, '\\.')));
    assert.match((await entry.textContent()) ?? '', new RegExp(learner.public_id));
    const address = new URL(page.url()).searchParams;
    assert.equal(address.get('action'), 'user.updated');
    assert.equal(address.get('resource_type'), 'user');

    // only this user's changes, then only those the colleague made
    await entry.getByRole('button', { name: new RegExp(learner.public_id) }).click();
    await table.getByRole('row').filter({ hasText: 'name: Grace → Grace Hopper' }).waitFor();
    await entry.getByRole('button', { name: colleague.user.email }).click();
    await page.getByText(`By: ${colleague.user.email}`).waitFor();
    await table.getByRole('row').filter({ hasText: 'name: Grace → Grace Hopper' }).waitFor({ state: 'detached' });
    const narrowed = new URL(page.url()).searchParams;
    assert.equal(narrowed.get('resource_id'), learner.public_id);
    assert.equal(narrowed.get('actor'), colleague.user.public_id);
    assert.equal(await table.getByRole('row').count(), 2, 'the header and the one entry');
    await assertAccessible(page, 'Audit log');
    await screenshot(page, 'audit-log-role-change');

    // the view is an address: opened afresh it shows the same entry
    const again = await browser.newPage(390);
    await signInWithToken(again, server.url, server.adminToken);
    await again.goto(page.url());
    await again.getByRole('row').filter({ hasText: 'role: user → organizer' }).waitFor();
    await screenshot(again, 'audit-log-role-change');

    // a hand-edited address naming an action the log never records filters by nothing, with no error
    await again.goto(`${server.url}/console/audit-log?action=user.update`);
    await again.getByRole('row').filter({ hasText: 'role: user → organizer' }).waitFor();
    assert.equal(await again.getByRole('alert').count(), 0);
    assert.equal(await again.getByLabel('Action').inputValue(), '');
  });
});
