/**
 * SCIM as identity providers drive it (docs/identity.md): a provisioning run of 1 000 users, a group
 * of all of them and 100 deactivations, and the request sequences Okta and Microsoft Entra ID
 * document for their SCIM clients, quirks included. The run's duration is logged, not asserted
 * (the SQLite figure is a measurement: see the closing note).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { ENTERPRISE, expectScimError, oktaUser, patchOp, ScimClient, SCIM_GROUP, SCIM_USER } from '../helpers/scim-client.ts';

/** Runs `work` over `items`, `concurrency` at a time, as a provider's worker pool does. */
async function inParallel<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

const filterQuery = (filter: string) => `filter=${encodeURIComponent(filter)}`;

describe('SCIM provisioning as identity providers send it', () => {
  // a provider's run is thousands of requests from one token: well over the default 600 a minute
  const server = useServer({ args: ['--rate-limit', '100000'] });
  let scim: ScimClient;

  before(async () => {
    const issued = await server.api.post('/api/v2/api-tokens/', { name: 'identity provider', scopes: ['scim:write'] });
    assert.equal(issued.status, 201, issued.text);
    scim = ScimClient.of(server, issued.body.token);
  });

  it('creates 1 000 users, then a group of all of them, then deactivates 100', async () => {
    const stamp = `run${process.pid}${Date.now()}`;
    const emails = Array.from({ length: 1000 }, (_, i) => `${stamp}.${i}@provisioned.example.com`);
    const started = performance.now();
    const ids = await inParallel(emails, 4, async (email) => {
      const created = await scim.post('/Users', oktaUser(email, { externalId: `ext-${email}` }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    });
    const usersSeconds = (performance.now() - started) / 1000;
    console.log(`scim: 1000 users provisioned in ${usersSeconds.toFixed(2)} s (${process.env.LECTERN_TEST_DATABASE ?? 'sqlite'})`);

    const group = await scim.post('/Groups', { schemas: [SCIM_GROUP], displayName: `All ${stamp}`, members: [] });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    // providers send members in batches; these are 500 a request
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500).map((value) => ({ value }));
      const patched = await scim.patch(`/Groups/${group.body.id}`, patchOp({ op: 'add', path: 'members', value: batch }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body).slice(0, 300));
    }
    const api = await server.api.get(`/api/v2/groups/${group.body.id}/`);
    assert.equal(api.body.member_count, 1000);

    await inParallel(ids.slice(0, 100), 4, async (id) => {
      const patched = await scim.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
    });
    const totalSeconds = (performance.now() - started) / 1000;
    console.log(`scim: the whole run (users, group, 100 deactivations) took ${totalSeconds.toFixed(2)} s`);

    const inactive = await scim.get(`/Users?${filterQuery(`userName sw "${stamp}." and active eq false`)}&count=200`);
    assert.equal(inactive.body.totalResults, 100);
    assert.deepEqual(inactive.body.Resources.map((user: any) => user.id).sort(), ids.slice(0, 100).sort());
    const active = await scim.get(`/Users?${filterQuery(`userName sw "${stamp}." and active eq true`)}&count=1`);
    assert.equal(active.body.totalResults, 900);
    const members = await scim.get(`/Groups/${group.body.id}`);
    assert.equal(members.body.members.length, 1000);
    const byExternalId = await scim.get(`/Users?${filterQuery(`externalId eq "ext-${emails[777]}"`)}`);
    assert.deepEqual(
      byExternalId.body.Resources.map((user: any) => user.id),
      [ids[777]],
    );
  });

  it("follows Okta's user sequence: look up, create, read, update, deactivate by replace without a path", async () => {
    const email = uniqueEmail('okta');
    const lookup = await scim.get(`/Users?${filterQuery(`userName eq "${email}"`)}&startIndex=1&count=100`);
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.totalResults, 0);
    assert.deepEqual(lookup.body.Resources, []);
    const created = await scim.post('/Users', oktaUser(email));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    const found = await scim.get(`/Users?${filterQuery(`userName eq "${email}"`)}&startIndex=1&count=100`);
    assert.deepEqual(
      found.body.Resources.map((user: any) => user.id),
      [id],
    );
    const read = await scim.get(`/Users/${id}`);
    assert.equal(read.status, 200);
    // Okta's profile push: PUT of the whole user
    const pushed = await scim.put(`/Users/${id}`, { ...read.body, name: { givenName: 'Ada', familyName: 'Byron' } });
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(pushed.body.name.formatted, 'Ada Byron');
    const deactivated = await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', value: { active: false } }));
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    assert.equal(deactivated.body.active, false);
    const reactivated = await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', value: { active: true } }));
    assert.equal(reactivated.body.active, true);
  });

  it("follows Okta's group push: create, add members, rename, remove a member by filter", async () => {
    const users = await Promise.all([0, 1].map(async () => (await scim.post('/Users', oktaUser(uniqueEmail('okta-g')))).body.id as string));
    const name = `Okta push ${process.pid} ${Date.now()}`;
    const group = await scim.post('/Groups', { schemas: [SCIM_GROUP], displayName: name, members: [] });
    assert.equal(group.status, 201);
    const path = `/Groups/${group.body.id}`;
    const added = await scim.patch(path, patchOp({ op: 'add', path: 'members', value: users.map((value) => ({ value, display: 'x' })) }));
    assert.equal(added.body.members.length, 2);
    const renamed = await scim.patch(path, patchOp({ op: 'replace', value: { id: group.body.id, displayName: `${name} renamed` } }));
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.displayName, `${name} renamed`);
    const removed = await scim.patch(path, patchOp({ op: 'remove', path: `members[value eq "${users[0]}"]` }));
    assert.deepEqual(
      removed.body.members.map((member: any) => member.value),
      [users[1]],
    );
    assert.equal((await scim.delete(path)).status, 204);
  });

  it("follows Entra ID's user sequence: string booleans, capitalised ops, filtered email paths, the manager by id", async () => {
    const email = uniqueEmail('entra');
    const lookup = await scim.get(`/Users?${filterQuery(`userName eq "${email}"`)}`);
    assert.equal(lookup.body.totalResults, 0);
    const created = await scim.post('/Users', {
      schemas: [SCIM_USER, ENTERPRISE],
      externalId: 'entra-object-id',
      userName: email,
      active: 'True',
      displayName: 'Grace Hopper',
      emails: [{ primary: 'True', type: 'work', value: email }],
      name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
      roles: [],
      [ENTERPRISE]: { employeeNumber: '1701' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    const manager = (await scim.post('/Users', oktaUser(uniqueEmail('entra-manager')))).body.id;
    const email2 = uniqueEmail('entra-renamed');
    const updated = await scim.patch(
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'displayName', value: 'Grace B. Hopper' },
        { op: 'Replace', path: 'name.formatted', value: 'Grace B. Hopper' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: email2 },
        { op: 'Replace', path: `${ENTERPRISE}:manager`, value: manager },
        { op: 'Replace', path: 'active', value: 'False' },
      ),
    );
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.name.formatted, 'Grace B. Hopper');
    assert.equal(updated.body.userName, email2);
    assert.equal(updated.body[ENTERPRISE].manager.value, manager);
    assert.equal(updated.body.active, false);
    // Entra's check that a user it deleted is gone
    assert.equal((await scim.delete(`/Users/${id}`)).status, 204);
    expectScimError(await scim.get(`/Users/${id}`), 404);
  });

  it("follows Entra ID's group sequence: look up without members, create, add and remove members by value", async () => {
    const users = await Promise.all(
      [0, 1, 2].map(async () => (await scim.post('/Users', oktaUser(uniqueEmail('entra-g')))).body.id as string),
    );
    const name = `Entra group ${process.pid} ${Date.now()}`;
    const lookup = await scim.get(`/Groups?${filterQuery(`displayName eq "${name}"`)}&excludedAttributes=members`);
    assert.equal(lookup.body.totalResults, 0);
    const group = await scim.post('/Groups', { schemas: [SCIM_GROUP], externalId: 'entra-group-id', displayName: name, members: [] });
    assert.equal(group.status, 201);
    const path = `/Groups/${group.body.id}`;
    const added = await scim.patch(path, patchOp({ op: 'Add', path: 'members', value: users.map((value) => ({ value })) }));
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const removed = await scim.patch(path, patchOp({ op: 'Remove', path: 'members', value: [{ value: users[0] }, { value: users[1] }] }));
    assert.deepEqual(
      removed.body.members.map((member: any) => member.value),
      [users[2]],
    );
    const member = await scim.get(
      `/Groups?${filterQuery(`id eq "${group.body.id}" and members[value eq "${users[2]}"]`)}&excludedAttributes=members`,
    );
    assert.equal(member.body.totalResults, 1);
    const notMember = await scim.get(
      `/Groups?${filterQuery(`id eq "${group.body.id}" and members[value eq "${users[0]}"]`)}&excludedAttributes=members`,
    );
    assert.equal(notMember.body.totalResults, 0);
  });
});
