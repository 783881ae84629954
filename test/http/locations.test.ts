/**
 * `PATCH /api/v2/locations/<id>/`: a rename always, a new time zone only while no event or series
 * is held there; If-Match, validation, scopes, and the audit entry with the fields that changed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectFieldError, useServer, userWithToken } from '../helpers/server.ts';

describe('PATCH /api/v2/locations/<id>/', () => {
  const server = useServer();
  const api = () => server.api;
  const newLocation = async (name = 'Lisbon office', timezone = 'Europe/Lisbon') => {
    const created = await api().post('/api/v2/locations/', { name, timezone });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: number; name: string; timezone: string };
  };
  const auditOf = async (id: number) =>
    (await api().get(`/api/v2/audit-log/?resource_type=location&resource_id=${id}`)).body.data as Array<{
      action: string;
      changes: Record<string, { from: unknown; to: unknown }> | null;
    }>;

  it('renames a location and moves an unused one to another zone, each change audited with from and to', async () => {
    const location = await newLocation();
    const renamed = await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Porto office' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(renamed.body, { id: location.id, name: 'Porto office', timezone: 'Europe/Lisbon' });
    assert.ok(renamed.headers.get('etag'));
    const moved = await api().patch(`/api/v2/locations/${location.id}`, { timezone: 'Atlantic/Azores' });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual((await api().get(`/api/v2/locations/${location.id}/`)).body, { ...renamed.body, timezone: 'Atlantic/Azores' });
    const entries = await auditOf(location.id);
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.changes]),
      [
        ['location.updated', { timezone: { from: 'Europe/Lisbon', to: 'Atlantic/Azores' } }],
        ['location.updated', { name: { from: 'Lisbon office', to: 'Porto office' } }],
        ['location.created', null],
      ],
    );
    // a PATCH that changes nothing records nothing
    assert.equal((await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Porto office' })).status, 200);
    assert.equal((await auditOf(location.id)).length, 3);
  });

  it('keeps the zone of a location events are held at (409), while its name still changes and the events show it', async () => {
    const location = await newLocation('Berlin office', 'Europe/Berlin');
    const event = await api().post('/api/v2/events/', {
      name: 'Onboarding',
      location_id: location.id,
      is_local: true,
      timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }],
    });
    assert.equal(event.status, 201, event.text);
    const refused = await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Elsewhere', timezone: 'America/New_York' });
    expectError(refused, 409, 'conflict');
    assert.match(refused.body.error.message, /time zone cannot change/);
    // nothing of the refused request was kept, not even its name
    assert.deepEqual((await api().get(`/api/v2/locations/${location.id}/`)).body, location);
    // the same zone again is no change, and a rename is fine
    const renamed = await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Berlin HQ', timezone: 'Europe/Berlin' });
    assert.equal(renamed.status, 200, renamed.text);
    const read = await api().get(`/api/v2/events/${event.body.public_id}/`);
    assert.deepEqual(read.body.location, { id: location.id, name: 'Berlin HQ', timezone: 'Europe/Berlin' });
    assert.equal(read.body.starts_at_utc, event.body.starts_at_utc);
  });

  it('checks If-Match against the current ETag (412 when stale)', async () => {
    const location = await newLocation('Madrid office', 'Europe/Madrid');
    const etag = (await api().get(`/api/v2/locations/${location.id}/`)).headers.get('etag')!;
    const renamed = await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Madrid HQ' }, { headers: { 'if-match': etag } });
    assert.equal(renamed.status, 200, renamed.text);
    const stale = await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Madrid again' }, { headers: { 'if-match': etag } });
    expectError(stale, 412, 'precondition_failed');
    assert.equal((await api().get(`/api/v2/locations/${location.id}/`)).body.name, 'Madrid HQ');
    const current = renamed.headers.get('etag')!;
    assert.equal(
      (await api().patch(`/api/v2/locations/${location.id}/`, { name: 'Madrid again' }, { headers: { 'if-match': current } })).status,
      200,
    );
  });

  it('refuses bad input with field errors, unknown ids with 404, and callers without events:write', async () => {
    const location = await newLocation('Rome office', 'Europe/Rome');
    for (const timezone of ['Mars/Olympus', '+02:00', '', 42, null]) {
      expectFieldError(await api().patch(`/api/v2/locations/${location.id}/`, { timezone }), 'timezone');
    }
    for (const name of ['', 'x'.repeat(256), null])
      expectFieldError(await api().patch(`/api/v2/locations/${location.id}/`, { name }), 'name');
    expectError(await api().patch(`/api/v2/locations/${location.id}/`, { id: 7 }), 422, 'validation_error');
    expectError(await api().patch('/api/v2/locations/abc/', { name: 'x' }), 404, 'not_found');
    expectError(await api().patch('/api/v2/locations/999999/', { name: 'x' }), 404, 'not_found');
    const reader = await userWithToken(server, 'organizer', 'events:read');
    expectError(await reader.api.patch(`/api/v2/locations/${location.id}/`, { name: 'Mine' }), 403, 'insufficient_scope');
    const learner = await userWithToken(server, 'user');
    expectError(await learner.api.patch(`/api/v2/locations/${location.id}/`, { name: 'Mine' }), 403, 'forbidden');
    assert.deepEqual((await api().get(`/api/v2/locations/${location.id}/`)).body, location);
  });
});
