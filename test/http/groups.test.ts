import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFieldError, uniqueEmail, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

describe('groups', () => {
  const server = useServer();
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  const newUsers = async (count: number) => {
    const users = [];
    for (let i = 0; i < count; i++) {
      const response = await api.post('/api/v2/users/', { email: uniqueEmail('member'), name: `Member ${i}` });
      users.push(response.body);
    }
    return users;
  };
  const newGroup = async (fields: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v2/groups/', { name: `Group ${Date.now()}`, ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };

  it('creates with the native source by default, or the given one', async () => {
    const native = await newGroup({ name: 'Native' });
    assert.deepEqual(Object.keys(native).sort(), ['created', 'member_count', 'modified', 'name', 'owners', 'public_id', 'source']);
    assert.equal(native.source, 'native');
    assert.equal(native.member_count, 0);
    assert.deepEqual(native.owners, []);
    assert.equal((await newGroup({ source: 'workday' })).source, 'workday');
    assert.equal((await newGroup({ source: null })).source, null);
    expectFieldError(await api.post('/api/v2/groups/', {}), 'name');
    expectFieldError(await api.post('/api/v2/groups/', { name: 'x', colour: 'red' }), 'colour');
  });

  it('gets, renames, and deletes (204, then 404 twice)', async () => {
    const group = await newGroup();
    const path = `/api/v2/groups/${group.public_id}/`;
    assert.deepEqual((await api.get(path)).body, group);
    const renamed = await api.patch(path, { name: 'Renamed group' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed group');
    expectFieldError(await api.patch(path, { source: 'x' }), 'source');
    const deleted = await api.delete(path);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    expectError(await api.get(path), 404, 'not_found');
    expectError(await api.delete(path), 404, 'not_found');
    const listed = await api.get(`/api/v2/groups/?search=Renamed group`);
    assert.ok(listed.body.data.every((g: any) => g.public_id !== group.public_id));
  });

  it('filters by name (partial, any case), source and search, and orders', async () => {
    const tag = `gf${Date.now()}`;
    const a = await newGroup({ name: `${tag} Engineering`, source: 'ldap' });
    const b = await newGroup({ name: `${tag} Sales`, source: 'native' });
    const c = await newGroup({ name: `Other ${tag}`, source: `${tag}-hr` });
    const ids = async (query: string) => (await api.get(`/api/v2/groups/?${query}`)).body.data.map((g: any) => g.public_id);
    assert.deepEqual((await ids(`name=${tag.toUpperCase()} eng`)).sort(), [a.public_id]);
    assert.deepEqual((await ids(`name=${tag}&source=native`)).sort(), [b.public_id]);
    assert.deepEqual((await ids(`search=${tag}-HR`)).sort(), [c.public_id]);
    assert.deepEqual(await ids(`search=${tag}&ordering=-name`), [c.public_id, b.public_id, a.public_id]);
  });

  it('adds, removes and replaces members with an exact member_count', async () => {
    const group = await newGroup();
    const [u1, u2, u3, u4] = await newUsers(4);
    const members = `/api/v2/groups/${group.public_id}/members/`;
    const added = await api.post(members, { member_ids: [u1.public_id, u2.public_id, u2.public_id] });
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.member_count, 2);
    assert.equal((await api.post(members, { member_ids: [u1.public_id] })).body.member_count, 2, 'adding a member again is a no-op');
    const removed = await api.delete(members, { member_ids: [u2.public_id, u3.public_id] });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.member_count, 1, 'removing a non-member is ignored');
    const listed = await api.get(members);
    assert.deepEqual(
      listed.body.data.map((u: any) => u.public_id),
      [u1.public_id],
    );
    assert.equal(listed.body.meta.total_count, 1);

    expectFieldError(await api.put(members, { member_ids: [u3.public_id] }), 'confirm_replace');
    const replaced = await api.put(members, { member_ids: [u1.public_id, u3.public_id, u4.public_id], confirm_replace: true });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.member_count, 3);
    // removing 2 of 3 (> 50 %) needs a second confirmation
    const large = await api.put(members, { member_ids: [u2.public_id], confirm_replace: true });
    expectFieldError(large, 'confirm_large_removal');
    assert.match(large.body.error.field_errors.confirm_large_removal[0], /3 of 3/);
    assert.equal((await api.get(`/api/v2/groups/${group.public_id}/`)).body.member_count, 3, 'nothing changed');
    const confirmed = await api.put(members, { member_ids: [u2.public_id], confirm_replace: true, confirm_large_removal: true });
    assert.equal(confirmed.body.member_count, 1);
    // exactly half is not "more than 50 %"
    await api.post(members, { member_ids: [u1.public_id] });
    assert.equal((await api.put(members, { member_ids: [u1.public_id], confirm_replace: true })).status, 200);
  });

  it('rejects unknown or malformed member ids without changing anything', async () => {
    const group = await newGroup();
    const [u1] = await newUsers(1);
    const members = `/api/v2/groups/${group.public_id}/members/`;
    const ghost = crypto.randomUUID();
    const unknown = await api.post(members, { member_ids: [u1.public_id, ghost] });
    expectFieldError(unknown, 'member_ids');
    assert.match(unknown.body.error.field_errors.member_ids[0], new RegExp(ghost));
    assert.equal((await api.get(`/api/v2/groups/${group.public_id}/`)).body.member_count, 0);
    expectFieldError(await api.post(members, { member_ids: [] }), 'member_ids');
    expectFieldError(await api.post(members, { member_ids: ['nope'] }), 'member_ids.0');
    expectFieldError(await api.post(members, {}), 'member_ids');
    expectFieldError(await api.post(members, { member_ids: [u1.public_id], confirm_replace: true }), 'confirm_replace');
    expectError(await api.post(`/api/v2/groups/${crypto.randomUUID()}/members/`, { member_ids: [u1.public_id] }), 404, 'not_found');
  });

  it('manages owners, listed on the group', async () => {
    const group = await newGroup();
    const [o1, o2] = await newUsers(2);
    const owners = `/api/v2/groups/${group.public_id}/owners/`;
    const added = await api.post(owners, { member_ids: [o1.public_id, o2.public_id] });
    assert.equal(added.status, 200);
    assert.deepEqual(added.body.owners.map((o: any) => o.public_id).sort(), [o1.public_id, o2.public_id].sort());
    assert.deepEqual(Object.keys(added.body.owners[0]).sort(), ['email', 'name', 'public_id']);
    assert.equal(added.body.member_count, 0, 'owners are not members');
    assert.equal((await api.delete(owners, { member_ids: [o1.public_id] })).body.owners.length, 1);
    expectFieldError(await api.put(owners, { member_ids: [o1.public_id], confirm_replace: true }), 'confirm_large_removal');
    const replaced = await api.put(owners, { member_ids: [o1.public_id], confirm_replace: true, confirm_large_removal: true });
    assert.deepEqual(
      replaced.body.owners.map((o: any) => o.public_id),
      [o1.public_id],
    );
  });

  it('lets an organizer change members of the groups it owns, and nothing else', async () => {
    const organizer = await userWithToken(server, 'organizer');
    const owned = await newGroup();
    const other = await newGroup();
    const [member] = await newUsers(1);
    await api.post(`/api/v2/groups/${owned.public_id}/owners/`, { member_ids: [organizer.user.public_id] });

    assert.equal((await organizer.api.get('/api/v2/groups/')).status, 200);
    assert.equal((await organizer.api.post(`/api/v2/groups/${owned.public_id}/members/`, { member_ids: [member.public_id] })).status, 200);
    assert.equal((await organizer.api.patch(`/api/v2/groups/${owned.public_id}/`, { name: 'Mine' })).status, 200);
    expectError(
      await organizer.api.post(`/api/v2/groups/${other.public_id}/members/`, { member_ids: [member.public_id] }),
      403,
      'forbidden',
    );
    expectError(await organizer.api.patch(`/api/v2/groups/${other.public_id}/`, { name: 'Theirs' }), 403, 'forbidden');
    expectError(
      await organizer.api.post(`/api/v2/groups/${owned.public_id}/owners/`, { member_ids: [member.public_id] }),
      403,
      'forbidden',
    );
    expectError(await organizer.api.post('/api/v2/groups/', { name: 'New' }), 403, 'forbidden');
    expectError(await organizer.api.delete(`/api/v2/groups/${owned.public_id}/`), 403, 'forbidden');

    const learner = await userWithToken(server, 'user');
    expectError(await learner.api.get('/api/v2/groups/'), 403, 'forbidden');
    expectError(await learner.api.get(`/api/v2/groups/${owned.public_id}/`), 403, 'forbidden');
  });

  it('keeps member_count exact in lists and orders by it', async () => {
    const tag = `mc${Date.now()}`;
    const small = await newGroup({ name: `${tag} small` });
    const big = await newGroup({ name: `${tag} big` });
    const users = await newUsers(3);
    await api.post(`/api/v2/groups/${big.public_id}/members/`, { member_ids: users.map((u) => u.public_id) });
    await api.post(`/api/v2/groups/${small.public_id}/members/`, { member_ids: [users[0].public_id] });
    const listed = (await api.get(`/api/v2/groups/?name=${tag}&ordering=-member_count`)).body.data;
    assert.deepEqual(
      listed.map((g: any) => [g.public_id, g.member_count]),
      [
        [big.public_id, 3],
        [small.public_id, 1],
      ],
    );
  });
  it('lists the groups a user is a member of (member=<user id>) or owns (owner=<user id>), for admins and organizers', async () => {
    const tag = `mf${Date.now()}`;
    const [user, other] = await newUsers(2);
    const first = await newGroup({ name: `${tag} first` });
    const second = await newGroup({ name: `${tag} second` });
    const owned = await newGroup({ name: `${tag} owned` });
    const gone = await newGroup({ name: `${tag} gone` });
    for (const group of [first, second, gone])
      await api.post(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [user.public_id] });
    await api.post(`/api/v2/groups/${second.public_id}/members/`, { member_ids: [other.public_id] });
    await api.post(`/api/v2/groups/${owned.public_id}/owners/`, { member_ids: [user.public_id] });
    await api.delete(`/api/v2/groups/${gone.public_id}/`);

    const ids = async (client: ApiClient, query: string) => {
      const response = await client.get(`/api/v2/groups/?${query}`);
      assert.equal(response.status, 200, response.text);
      return response.body.data.map((g: any) => g.public_id);
    };
    // ownership is not membership, and a deleted group is gone from every list
    assert.deepEqual(await ids(api, `member=${user.public_id}&ordering=name`), [first.public_id, second.public_id]);
    assert.deepEqual(await ids(api, `member=${other.public_id}`), [second.public_id]);
    assert.deepEqual(await ids(api, `member=${user.public_id}&name=sec`), [second.public_id], 'combines with the other filters');
    const counted = await api.get(`/api/v2/groups/?member=${user.public_id}&page_size=1`);
    assert.equal(counted.body.meta.total_count, 2);
    assert.equal(counted.body.data.length, 1);
    assert.deepEqual(await ids(api, `member=${crypto.randomUUID()}`), [], 'an unknown user is in no group');
    // and the other way: the groups a user owns, not those they are only in
    assert.deepEqual(await ids(api, `owner=${user.public_id}`), [owned.public_id]);
    assert.deepEqual(await ids(api, `owner=${other.public_id}`), []);
    expectError(await api.get('/api/v2/groups/?owner=nobody'), 400, 'bad_request');

    // a malformed filter value is 400 naming the parameter, as for every list filter
    for (const bad of ['not-a-uuid', `${user.public_id},${other.public_id}`]) {
      const refused = await api.get(`/api/v2/groups/?member=${encodeURIComponent(bad)}`);
      expectError(refused, 400, 'bad_request');
      assert.match(refused.body.error.message, /'member'/);
    }

    const organizer = await userWithToken(server, 'organizer');
    assert.deepEqual(await ids(organizer.api, `member=${user.public_id}&ordering=name`), [first.public_id, second.public_id]);
    const learner = await userWithToken(server, 'user');
    expectError(await learner.api.get(`/api/v2/groups/?member=${learner.user.public_id}`), 403, 'forbidden');
  });
});
