/**
 * `GET /api/v2/audit-log/`: one entry per change, through the API, bulk jobs and the command line,
 * with actor, token, request id and field changes; none for a change refused or rolled back; the
 * filters and cursor pages; admins only; and no token value or webhook secret in any entry.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import {
  assignedArticle,
  cliToken,
  expectError,
  runCli,
  uniqueEmail,
  userWithToken,
  useServer,
  type ApiClient,
  type ApiResponse,
} from '../helpers/server.ts';

interface Entry {
  id: string;
  occurred_at: string;
  action: string;
  actor: { public_id: string; email: string } | null;
  token_public_id: string | null;
  request_id: string | null;
  resource: { type: string; public_id: string };
  changes: Record<string, { from: unknown; to: unknown }> | null;
}

describe('audit log', () => {
  const server = useServer({ args: ['--allow-private-webhook-targets', '--rate-limit', '100000'] });
  /** every token value and webhook secret this file sees, for the final scan */
  const secrets: string[] = [];

  const page = async (query = ''): Promise<{ data: Entry[]; meta: { page_size: number; next_cursor: string | null } }> => {
    const response = await server.api.get(`/api/v2/audit-log/${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const entriesFor = async (resourceId: string) => (await page(`?resource_id=${encodeURIComponent(resourceId)}&page_size=100`)).data;
  const only = async (resourceId: string, action: string): Promise<Entry> => {
    const found = (await entriesFor(resourceId)).filter((entry) => entry.action === action);
    assert.equal(found.length, 1, `one ${action} of ${resourceId}, got ${JSON.stringify(found)}`);
    return found[0]!;
  };
  const requestIdOf = (response: ApiResponse) => response.headers.get('x-request-id');
  let admin: { public_id: string; email: string; token: string };
  const asAdmin = async () => {
    if (!admin) {
      const me = (await server.api.get('/api/v2/me/')).body;
      admin = { public_id: me.user.public_id, email: me.user.email, token: me.token.public_id };
      secrets.push(server.adminToken);
    }
    return admin;
  };
  /** checks who, with which token and through which request, made the change */
  const assertMadeBy = async (entry: Entry, response: ApiResponse) => {
    const me = await asAdmin();
    assert.deepEqual(entry.actor, { public_id: me.public_id, email: me.email });
    assert.equal(entry.token_public_id, me.token);
    assert.equal(entry.request_id, requestIdOf(response));
  };

  it('answers 401 without a token, 403 to an organizer and to an admin token without audit:read', async () => {
    expectError(await server.api.get('/api/v2/audit-log/', { token: null }), 401, 'unauthenticated');
    const organizer = await userWithToken(server, 'organizer');
    secrets.push(organizer.token);
    expectError(await organizer.api.get('/api/v2/audit-log/'), 403, 'forbidden');
    const narrow = await userWithToken(server, 'admin', 'users:read');
    secrets.push(narrow.token);
    expectError(await narrow.api.get('/api/v2/audit-log/'), 403, 'insufficient_scope');
  });

  it('records a user created and updated, with the changed fields; a PATCH that changes nothing or fails its precondition records nothing', async () => {
    const created = await server.api.post('/api/v2/users/', { email: uniqueEmail('audited'), name: 'Ada', role: 'user' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.public_id;
    const entry = await only(id, 'user.created');
    await assertMadeBy(entry, created);
    assert.deepEqual(entry.resource, { type: 'user', public_id: id });
    assert.equal(entry.changes, null);

    const updated = await server.api.patch(`/api/v2/users/${id}/`, { name: 'Ada Lovelace', role: 'organizer' });
    assert.equal(updated.status, 200, updated.text);
    const update = await only(id, 'user.updated');
    await assertMadeBy(update, updated);
    assert.deepEqual(update.changes, { name: { from: 'Ada', to: 'Ada Lovelace' }, role: { from: 'user', to: 'organizer' } });

    assert.equal((await server.api.patch(`/api/v2/users/${id}/`, { name: 'Ada Lovelace' })).status, 200);
    const refused = await server.api.patch(`/api/v2/users/${id}/`, { name: 'Someone else' }, { headers: { 'if-match': '"stale"' } });
    expectError(refused, 412, 'precondition_failed');
    assert.deepEqual(
      (await entriesFor(id)).map((e) => e.action),
      ['user.updated', 'user.created'],
    );
  });

  it('records groups: created, renamed, members changed, deleted', async () => {
    const group = await server.api.post('/api/v2/groups/', { name: 'Audited group' });
    assert.equal(group.status, 201, group.text);
    const id = group.body.public_id;
    await server.api.patch(`/api/v2/groups/${id}/`, { name: 'Renamed group' });
    const member = await server.api.post('/api/v2/users/', { email: uniqueEmail('member'), name: 'Member' });
    const added = await server.api.post(`/api/v2/groups/${id}/members/`, { member_ids: [member.body.public_id] });
    assert.equal(added.status, 200, added.text);
    assert.equal((await server.api.delete(`/api/v2/groups/${id}/`)).status, 204);
    const entries = await entriesFor(id);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['group.deleted', 'group.members_changed', 'group.updated', 'group.created'],
    );
    assert.deepEqual(entries[2]!.changes, { name: { from: 'Audited group', to: 'Renamed group' } });
    assert.deepEqual(entries[1]!.changes, { member_count: { from: 0, to: 1 } });
    await assertMadeBy(entries[1]!, added);
  });

  it('records content items created, updated, archived and deleted', async () => {
    const article = await server.api.post('/api/v2/articles/', { name: 'Audited article' });
    assert.equal(article.status, 201, article.text);
    const id = article.body.public_id;
    await server.api.patch(`/api/v2/articles/${id}/`, { description: 'Now described' });
    const archived = await server.api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: id }] });
    assert.equal(archived.status, 200, archived.text);
    assert.equal((await server.api.delete(`/api/v2/content-items/${id}/`)).status, 204);
    const entries = await entriesFor(id);
    assert.deepEqual(
      entries.map((e) => [e.action, e.resource.type]),
      [
        ['content_item.deleted', 'content_item'],
        ['content_item.archived', 'content_item'],
        ['content_item.updated', 'content_item'],
        ['content_item.created', 'content_item'],
      ],
    );
    assert.deepEqual(entries[2]!.changes, { description: { from: '', to: 'Now described' } });
    assert.deepEqual(entries[1]!.changes, { is_archived: { from: false, to: true } });
    await assertMadeBy(entries[1]!, archived);
  });

  it('records assignments created and their state changes', async () => {
    const { assigned } = await assignedArticle(server.api);
    const id = assigned.body.public_id;
    const completed = await server.api.post(`/api/v2/assignments/${id}/complete/`);
    assert.equal(completed.status, 200, completed.text);
    await assertMadeBy(await only(id, 'assignment.created'), assigned);
    const change = await only(id, 'assignment.state_changed');
    await assertMadeBy(change, completed);
    assert.deepEqual(change.changes!.state, { from: 'not_started', to: 'completed' });
  });

  it('records an event, an enrollment and its check-in, and the assignment the enrollment owns', async () => {
    const learner = await server.api.post('/api/v2/users/', { email: uniqueEmail('attendee'), name: 'Attendee' });
    const event = await server.api.post('/api/v2/events/', {
      name: 'Audited workshop',
      is_local: true,
      timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT2H' }],
    });
    assert.equal(event.status, 201, event.text);
    await only(event.body.public_id, 'content_item.created');
    const enrolled = await server.api.post('/api/v2/enrollments/', {
      user_id: learner.body.public_id,
      event_id: event.body.public_id,
      attendance_method: 'in_person',
    });
    assert.equal(enrolled.status, 201, enrolled.text);
    const id = enrolled.body.public_id;
    await assertMadeBy(await only(id, 'enrollment.created'), enrolled);
    const checkedIn = await server.api.post(`/api/v2/enrollments/${id}/checkin/`);
    assert.equal(checkedIn.status, 200, checkedIn.text);
    const change = await only(id, 'enrollment.updated');
    await assertMadeBy(change, checkedIn);
    assert.equal(change.changes!.checkin_datetime!.from, null);
    assert.equal(change.changes!.checkin_datetime!.to, checkedIn.body.checkin_datetime);
    assert.deepEqual(change.changes!.state, { from: 'not_started', to: 'completed' });
    const owned = (await page('?action=assignment.created&page_size=100')).data.filter(
      (entry) => entry.request_id === requestIdOf(enrolled),
    );
    assert.equal(owned.length, 1, 'the owned assignment is recorded in the enrollment request');
  });

  it('records webhook endpoints created, updated, rotated and deleted without their secrets', async () => {
    const created = await server.api.post('/public_api/v2/webhooks/', {
      url: 'http://127.0.0.1:9/audited',
      events: ['assignment.created'],
    });
    assert.equal(created.status, 201, created.text);
    secrets.push(created.body.secret);
    const id = created.body.id;
    await server.api.patch(`/public_api/v2/webhooks/${id}/`, { description: 'Described' });
    const rotated = await server.api.post(`/public_api/v2/webhooks/${id}/rotate-secret/`);
    assert.equal(rotated.status, 200, rotated.text);
    secrets.push(rotated.body.secret);
    assert.equal((await server.api.delete(`/public_api/v2/webhooks/${id}/`)).status, 204);
    const entries = await entriesFor(id);
    assert.deepEqual(
      entries.map((e) => [e.action, e.resource.type]),
      [
        ['webhook_endpoint.deleted', 'webhook_endpoint'],
        ['webhook_endpoint.secret_rotated', 'webhook_endpoint'],
        ['webhook_endpoint.updated', 'webhook_endpoint'],
        ['webhook_endpoint.created', 'webhook_endpoint'],
      ],
    );
    assert.deepEqual(entries[1]!.changes, { secret: { from: '[redacted]', to: '[redacted]' } });
    assert.deepEqual(entries[2]!.changes, { description: { from: '', to: 'Described' } });
    assert.equal(entries[3]!.changes, null);
    await assertMadeBy(entries[1]!, rotated);
  });

  it('records tokens created and revoked through the API as the caller, and through the command line with no actor', async () => {
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'audited' });
    assert.equal(created.status, 201, created.text);
    secrets.push(created.body.token);
    const id = created.body.public_id;
    const revoked = await server.api.delete(`/api/v2/api-tokens/${id}/`);
    assert.equal(revoked.status, 204);
    await assertMadeBy(await only(id, 'api_token.created'), created);
    await assertMadeBy(await only(id, 'api_token.revoked'), revoked);

    const email = uniqueEmail('cli');
    const issued = await cliToken(server.dbFile, email, 'cli', '--role', 'user');
    secrets.push(issued.token);
    const byCli = await only(issued.public_id, 'api_token.created');
    assert.equal(byCli.actor, null);
    assert.equal(byCli.token_public_id, null);
    assert.equal((await only(issued.user.public_id, 'user.created')).actor, null, 'the user the command created');
    const revokedByCli = await runCli(['tokens', 'revoke', '--db', server.dbFile, issued.public_id]);
    assert.equal(revokedByCli.code, 0, revokedByCli.stderr);
    assert.equal((await only(issued.public_id, 'api_token.revoked')).actor, null);
  });

  it('records each item a bulk job creates, as done by the submitter in the submitting request', async () => {
    const users = [0, 1, 2].map((i) => ({ email: uniqueEmail(`bulk${i}`), name: `Bulk ${i}` }));
    const submitted = await server.api.post('/api/v2/users/bulk/', { users: [...users, { email: users[0]!.email, name: 'Duplicate' }] });
    assert.equal(submitted.status, 202, submitted.text);
    const job = await waitForJob(server.api, `/api/v2/users/bulk/${submitted.body.id}/`);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    const recorded = (await page('?action=user.created&page_size=100')).data.filter((e) => e.request_id === requestIdOf(submitted));
    assert.equal(recorded.length, 3, 'one entry per created item; the duplicate created nothing');
    for (const entry of recorded) await assertMadeBy(entry, submitted);
  });

  it('filters by actor, action, resource and time, and pages newest first by cursor', async () => {
    const me = await asAdmin();
    const all: Entry[] = [];
    let cursor: string | null = null;
    do {
      const next: Awaited<ReturnType<typeof page>> = await page(`?page_size=7${cursor ? `&cursor=${cursor}` : ''}`);
      assert.ok(next.data.length <= 7);
      assert.equal(next.meta.page_size, 7);
      all.push(...next.data);
      cursor = next.meta.next_cursor;
    } while (cursor);
    assert.ok(all.length > 20, `a walk over every entry, got ${all.length}`);
    assert.equal(new Set(all.map((e) => e.id)).size, all.length, 'no entry twice');
    const times = all.map((e) => e.occurred_at);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');

    const byAdmin = (await page(`?actor=${me.public_id}&page_size=100`)).data;
    assert.ok(byAdmin.length > 0 && byAdmin.every((e) => e.actor?.public_id === me.public_id));
    const tokens = (await page('?resource_type=api_token&page_size=100')).data;
    assert.ok(tokens.length >= 4 && tokens.every((e) => e.resource.type === 'api_token'));
    const revocations = (await page('?action=api_token.revoked&page_size=100')).data;
    assert.ok(revocations.length >= 2 && revocations.every((e) => e.action === 'api_token.revoked'));

    const middle = all[Math.floor(all.length / 2)]!.occurred_at;
    const since = (await page(`?occurred_at__gte=${middle}&page_size=100`)).data;
    assert.ok(since.length > 0 && since.every((e) => e.occurred_at >= middle));
    const until = (await page(`?occurred_at__lte=${middle}&page_size=100`)).data;
    assert.ok(until.length > 0 && until.every((e) => e.occurred_at <= middle));
    assert.deepEqual((await page('?occurred_at__lte=2000-01-01')).data, []);

    expectError(await server.api.get('/api/v2/audit-log/?cursor=nonsense'), 400, 'bad_request');
    expectError(await server.api.get(`/api/v2/audit-log/?cursor=aud_${'0'.repeat(26)}`), 400, 'bad_request');
    expectError(await server.api.get('/api/v2/audit-log/?actor=someone'), 400, 'bad_request');
    expectError(await server.api.get('/api/v2/audit-log/?occurred_at__gte=yesterday'), 400, 'bad_request');
    // a misspelt filter value is refused, naming the values it takes, rather than matching nothing
    const misspelt = await server.api.get('/api/v2/audit-log/?action=user.update');
    expectError(misspelt, 400, 'bad_request');
    assert.match(misspelt.body.error.message, /'action' must be one of: user\.created, user\.updated,/);
    const unknownType = await server.api.get('/api/v2/audit-log/?resource_type=users');
    expectError(unknownType, 400, 'bad_request');
    assert.match(unknownType.body.error.message, /api_token/);
  });

  it('holds no token value, token hash or webhook secret in any entry', async () => {
    assert.ok(secrets.length >= 6, 'the tests above saw tokens and secrets');
    const everything = await allEntriesText(server.api);
    for (const secret of secrets) {
      assert.ok(!everything.includes(secret), 'a token value or webhook secret reached the audit log');
      assert.ok(!everything.includes(createHash('sha256').update(secret).digest('hex')), 'a token hash reached the audit log');
    }
    assert.doesNotMatch(everything, /lpat_|whsec_/);
  });
});

async function allEntriesText(api: ApiClient): Promise<string> {
  const parts: string[] = [];
  let cursor: string | null = null;
  do {
    const response: ApiResponse = await api.get(`/api/v2/audit-log/?page_size=100${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(response.status, 200, response.text);
    parts.push(response.text);
    cursor = response.body.meta.next_cursor;
  } while (cursor);
  return parts.join('\n');
}
