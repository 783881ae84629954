/**
 * The Locations page: create one with the time zone picker, rename it, and see the server's
 * refusals explained (a zone change under events, an edit someone else got in first).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../helpers/server.ts';
import { assertAccessible, descriptionOf, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console Locations page', () => {
  const server = useServer();
  const browser = useBrowser();

  it('creates a location by picking its zone, then renames it', async () => {
    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await openPage(page, 'Locations');
    await page.getByText('New location').click();
    await page.getByLabel('Name', { exact: true }).fill('Lisbon office');
    const zone = page.getByLabel('Time zone', { exact: true });
    // the picker offers the browser's IANA zones
    const offered = await page
      .locator(`datalist#${await zone.getAttribute('list')} option`)
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    assert.ok(offered.includes('Europe/Lisbon') && offered.includes('America/New_York') && offered.length > 300, `${offered.length} zones`);
    // a name the list does not have is refused beside the field, before anything is sent
    await zone.fill('Lisbon');
    await page.getByRole('button', { name: 'Create location' }).click();
    assert.match(await descriptionOf(zone), /Pick a time zone from the list/);
    await zone.fill('Europe/Lisbon');
    await page.getByRole('button', { name: 'Create location' }).click();
    const table = page.getByRole('region', { name: 'Locations table' });
    const row = table.getByRole('row').filter({ hasText: 'Lisbon office' });
    await row.getByText('Europe/Lisbon').waitFor();
    const stored = (await server.api.get('/api/v2/locations/?search=Lisbon')).body.data;
    assert.deepEqual(
      stored.map((location: any) => [location.name, location.timezone]),
      [['Lisbon office', 'Europe/Lisbon']],
    );

    await row.getByRole('button', { name: 'Edit Lisbon office' }).click();
    const panel = page.getByRole('region', { name: 'Edit Lisbon office' });
    await panel.getByLabel('Name', { exact: true }).fill('Porto office');
    await panel.getByLabel('Time zone', { exact: true }).fill('Atlantic/Azores');
    await panel.getByRole('button', { name: 'Save location' }).click();
    await table.getByRole('row').filter({ hasText: 'Porto office' }).getByText('Atlantic/Azores').waitFor();
    assert.deepEqual((await server.api.get(`/api/v2/locations/${stored[0].id}/`)).body, {
      id: stored[0].id,
      name: 'Porto office',
      timezone: 'Atlantic/Azores',
    });
    await assertAccessible(page, 'Locations with the edit panel');
    await screenshot(page, 'locations-edit');
  });

  it('explains why the zone of a location with events cannot change, and an edit made stale by someone else', async () => {
    const location = (await server.api.post('/api/v2/locations/', { name: 'Berlin office', timezone: 'Europe/Berlin' })).body;
    const event = await server.api.post('/api/v2/events/', {
      name: 'Onboarding',
      location_id: location.id,
      is_local: true,
      timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }],
    });
    assert.equal(event.status, 201, event.text);
    const page = await browser.newPage(390);
    await signInWithToken(page, server.url, server.adminToken);
    await page.goto(`${server.url}/console/locations?edit=${location.id}`);
    const panel = page.getByRole('region', { name: 'Edit Berlin office' });
    await panel.getByLabel('Time zone', { exact: true }).fill('America/New_York');
    await panel.getByRole('button', { name: 'Save location' }).click();
    await panel.getByText('its time zone cannot change', { exact: false }).waitFor();
    assert.equal((await server.api.get(`/api/v2/locations/${location.id}/`)).body.timezone, 'Europe/Berlin');

    // someone renames it meanwhile: this form's copy is stale, and the server says so instead of overwriting
    assert.equal((await server.api.patch(`/api/v2/locations/${location.id}/`, { name: 'Berlin HQ' })).status, 200);
    await panel.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
    await panel.getByLabel('Name', { exact: true }).fill('Berlin Mitte');
    await panel.getByRole('button', { name: 'Save location' }).click();
    await panel.getByText('has changed since it was fetched', { exact: false }).waitFor();
    assert.equal((await server.api.get(`/api/v2/locations/${location.id}/`)).body.name, 'Berlin HQ');
    await assertAccessible(page, 'Locations with a refused edit');
    await screenshot(page, 'locations-refused');
  });
});
