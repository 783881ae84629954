import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectFieldError, uniqueEmail, useServer } from '../helpers/server.ts';

describe('users', () => {
  const server = useServer();

  const create = async (fields: Record<string, unknown> = {}) => {
    const response = await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Someone', ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };

  it('creates a user with defaults and returns the full shape', async () => {
    const email = uniqueEmail('Mixed.Case');
    const response = await server.api.post('/api/v2/users/', { email, name: '  Ada Lovelace  ' });
    assert.equal(response.status, 201);
    const user = response.body;
    assert.match(user.public_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(
      { ...user, public_id: undefined, date_joined: undefined },
      {
        public_id: undefined,
        email,
        name: 'Ada Lovelace',
        role: 'user',
        employee_id: null,
        is_active: true,
        manager: null,
        date_joined: undefined,
        email_notifications: true,
      },
    );
    assert.match(user.date_joined, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual((await server.api.get(`/api/v2/users/${user.public_id}/`)).body, user);
  });

  it('rejects a duplicate email, ignoring case, as a field error on email', async () => {
    const email = uniqueEmail();
    await create({ email });
    expectFieldError(await server.api.post('/api/v2/users/', { email: email.toUpperCase(), name: 'Twin' }), 'email');
  });

  it('searches ignoring the case of every letter', async () => {
    const tag = `t${process.pid}x${Date.now()}`;
    const user = await create({ name: `${tag} Привет Café` });
    const found = async (text: string) =>
      (await server.api.get(`/api/v2/users/?search=${encodeURIComponent(text)}`)).body.data.map((u: any) => u.public_id);
    assert.deepEqual(await found(`${tag} ПРИВЕТ CAFÉ`), [user.public_id]);
    assert.deepEqual(await found(`${tag} привет cafe\u0301`), [user.public_id]);
    assert.deepEqual(await found(`${tag} привет cafe `), []);
  });

  it('validates lengths and formats', async () => {
    expectFieldError(await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'x'.repeat(256) }), 'name');
    expectFieldError(await server.api.post('/api/v2/users/', { email: `${'a'.repeat(250)}@example.com`, name: 'Long' }), 'email');
    expectFieldError(await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'x', manager: 'not-a-uuid' }), 'manager');
    expectFieldError(await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'x', manager: crypto.randomUUID() }), 'manager');
    expectFieldError(await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'x', is_active: 'yes' }), 'is_active');
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of [crypto.randomUUID(), 'nope']) {
      const response = await server.api.get(`/api/v2/users/${id}/`);
      assert.equal(response.status, 404);
      assert.equal(response.body.error.code, 'not_found');
      assert.equal((await server.api.patch(`/api/v2/users/${id}/`, { name: 'x' })).status, 404);
    }
  });

  it('patches only the fields sent; null clears employee_id and manager', async () => {
    const boss = await create({ name: 'Boss' });
    const user = await create({ employee_id: 'E-1', manager: boss.public_id });
    assert.deepEqual(user.manager, { public_id: boss.public_id, name: 'Boss', email: boss.email });
    const renamed = await server.api.patch(`/api/v2/users/${user.public_id}/`, { name: 'Renamed', role: 'organizer' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed');
    assert.equal(renamed.body.role, 'organizer');
    assert.equal(renamed.body.employee_id, 'E-1');
    assert.equal(renamed.body.manager.public_id, boss.public_id);
    const cleared = await server.api.patch(`/api/v2/users/${user.public_id}/`, { employee_id: null, manager: null });
    assert.equal(cleared.body.employee_id, null);
    assert.equal(cleared.body.manager, null);
    expectFieldError(await server.api.patch(`/api/v2/users/${user.public_id}/`, { email: 'new@example.com' }), 'email');
  });

  it('refuses a manager that is the user or someone the user manages', async () => {
    const top = await create({ name: 'Top' });
    const middle = await create({ name: 'Middle', manager: top.public_id });
    const bottom = await create({ name: 'Bottom', manager: middle.public_id });
    expectFieldError(await server.api.patch(`/api/v2/users/${top.public_id}/`, { manager: top.public_id }), 'manager');
    expectFieldError(await server.api.patch(`/api/v2/users/${top.public_id}/`, { manager: bottom.public_id }), 'manager');
    expectFieldError(await server.api.patch(`/api/v2/users/${middle.public_id}/`, { manager: bottom.public_id }), 'manager');
    assert.equal((await server.api.patch(`/api/v2/users/${bottom.public_id}/`, { manager: top.public_id })).status, 200);
  });

  it('keeps at least one active admin', async () => {
    const admins = await server.api.get('/api/v2/users/?role=admin&is_active=true');
    assert.equal(admins.body.meta.total_count, 1);
    const self = admins.body.data[0];
    for (const change of [{ role: 'user' }, { is_active: false }]) {
      const response = await server.api.patch(`/api/v2/users/${self.public_id}/`, change);
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.error.code, 'conflict');
    }
  });

  it('filters by every documented parameter, in SQL, combined with AND', async () => {
    const tag = `flt${Date.now()}`;
    const manager = await create({ name: `${tag} Manager`, role: 'organizer' });
    const a = await create({ name: `${tag} Alpha`, employee_id: `${tag}-A`, manager: manager.public_id });
    const b = await create({ name: `${tag} Beta`, manager: manager.public_id, role: 'organizer' });
    const c = await create({ name: `${tag} Gamma` });
    await server.api.patch(`/api/v2/users/${c.public_id}/`, { is_active: false });
    const group = (await server.api.post('/api/v2/groups/', { name: `${tag} group` })).body;
    await server.api.post(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [a.public_id, c.public_id] });

    const ids = async (query: string) =>
      (await server.api.get(`/api/v2/users/?${query}&page_size=100`)).body.data.map((u: any) => u.public_id).sort();
    const sorted = (...users: any[]) => users.map((u) => u.public_id).sort();

    assert.deepEqual(await ids(`search=${tag}`), sorted(manager, a, b, c));
    assert.deepEqual(await ids(`search=${tag.toUpperCase()} al`), sorted(a));
    assert.deepEqual(await ids(`search=${encodeURIComponent(a.email.toUpperCase())}`), sorted(a));
    assert.deepEqual(await ids(`email=${encodeURIComponent(b.email.toUpperCase())}`), sorted(b));
    assert.deepEqual(await ids(`employee_id=${tag}-A`), sorted(a));
    assert.deepEqual(await ids(`search=${tag}&is_active=false`), sorted(c));
    assert.deepEqual(await ids(`search=${tag}&role=organizer`), sorted(manager, b));
    assert.deepEqual(await ids(`manager=${manager.public_id}`), sorted(a, b));
    assert.deepEqual(await ids(`group=${group.public_id}`), sorted(a, c));
    assert.deepEqual(await ids(`group=${group.public_id}&is_active=true`), sorted(a));
    assert.deepEqual(await ids(`manager=${crypto.randomUUID()}`), []);
    assert.deepEqual(await ids(`search=${tag}&date_joined__gte=${encodeURIComponent(b.date_joined)}`), sorted(b, c));
    assert.deepEqual(await ids(`search=${tag}&date_joined__lte=${encodeURIComponent(a.date_joined)}`), sorted(manager, a));
    // LIKE wildcards in search are literal
    assert.deepEqual(await ids(`search=${tag}%25`), []);
    assert.deepEqual(await ids(`search=${tag}_`), []);
    // a deleted group keeps its links, and its public id then filters to nobody
    assert.equal((await server.api.delete(`/api/v2/groups/${group.public_id}/`)).status, 204);
    assert.deepEqual(await ids(`group=${group.public_id}`), []);
  });

  it('orders by one or several fields, descending with -', async () => {
    const tag = `ord${Date.now()}`;
    const b = await create({ name: `${tag} B` });
    const a1 = await create({ name: `${tag} A` });
    const a2 = await create({ name: `${tag} A` });
    const names = async (ordering: string) =>
      (await server.api.get(`/api/v2/users/?search=${tag}&ordering=${ordering}`)).body.data.map((u: any) => u.public_id);
    assert.deepEqual(await names('name'), [a1.public_id, a2.public_id, b.public_id]);
    assert.deepEqual(await names('-name,-date_joined'), [b.public_id, a2.public_id, a1.public_id]);
    assert.deepEqual(await names('-date_joined'), [a2.public_id, a1.public_id, b.public_id]);
  });
});
