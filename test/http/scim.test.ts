/**
 * SCIM 2.0 at /scim/v2 (docs/identity.md): discovery, authentication, Users and Groups with their
 * mapping, filters, paging, PUT/PATCH/DELETE, ETags, and deactivation ending a user's tokens and
 * console sessions. On PostgreSQL every request alternates between two servers.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { cliToken, runCli, uniqueEmail, userWithToken, useServer } from '../helpers/server.ts';
import { ENTERPRISE, expectScimError, oktaUser, patchOp, ScimClient, SCIM_GROUP } from '../helpers/scim-client.ts';

describe('SCIM 2.0', () => {
  const server = useServer();
  let scim: ScimClient;
  let adminPublicId: string;

  before(async () => {
    const me = await server.api.get('/api/v2/me/');
    adminPublicId = me.body.user.public_id;
    const issued = await server.api.post('/api/v2/api-tokens/', { name: 'identity provider', scopes: ['scim:write'] });
    assert.equal(issued.status, 201, issued.text);
    scim = ScimClient.of(server, issued.body.token);
  });

  const createUser = async (email = uniqueEmail('scim'), extra: object = {}) => {
    const created = await scim.post('/Users', oktaUser(email, extra));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body;
  };

  describe('discovery', () => {
    it('describes the service provider: patch, filter (max 200) and etag, no bulk, sort or password change', async () => {
      const config = await scim.get('/ServiceProviderConfig');
      assert.equal(config.status, 200);
      assert.deepEqual(config.body.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
      assert.equal(config.body.patch.supported, true);
      assert.deepEqual(config.body.filter, { supported: true, maxResults: 200 });
      assert.equal(config.body.etag.supported, true);
      assert.equal(config.body.bulk.supported, false);
      assert.equal(config.body.sort.supported, false);
      assert.equal(config.body.changePassword.supported, false);
      assert.equal(config.body.authenticationSchemes[0].type, 'oauthbearertoken');
    });

    it('lists the resource types and schemas, each also by id', async () => {
      const types = await scim.get('/ResourceTypes');
      assert.equal(types.status, 200);
      assert.deepEqual(
        types.body.Resources.map((type: any) => [type.id, type.endpoint]),
        [
          ['User', '/Users'],
          ['Group', '/Groups'],
        ],
      );
      assert.equal(types.body.totalResults, 2);
      const schemas = await scim.get('/Schemas');
      assert.deepEqual(
        schemas.body.Resources.map((schema: any) => schema.id),
        ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE, SCIM_GROUP],
      );
      const user = await scim.get('/Schemas/urn:ietf:params:scim:schemas:core:2.0:User');
      assert.equal(user.status, 200);
      assert.ok(user.body.attributes.some((attribute: any) => attribute.name === 'userName' && attribute.uniqueness === 'server'));
      expectScimError(await scim.get('/ResourceTypes/Printer'), 404);
    });
  });

  describe('authentication and errors', () => {
    it('answers 401 without or with a bad token, 403 without scim:write or to an organizer, in the SCIM error schema', async () => {
      expectScimError(await scim.withToken(null).get('/Users'), 401);
      expectScimError(await scim.withToken('lpat_' + 'x'.repeat(43)).get('/ServiceProviderConfig'), 401);
      const readOnly = await server.api.post('/api/v2/api-tokens/', { name: 'no scim', scopes: ['users:read', 'users:write'] });
      expectScimError(await scim.withToken(readOnly.body.token).get('/Users'), 403);
      const organizer = await userWithToken(server, 'organizer');
      expectScimError(await scim.withToken(organizer.token).post('/Users', oktaUser(uniqueEmail())), 403);
      // an organizer cannot even hold the scope
      const denied = await organizer.api.post('/api/v2/api-tokens/', { name: 'scim', scopes: ['scim:write'] });
      assert.equal(denied.status, 422, denied.text);
    });

    it('answers unknown paths, bad bodies and media types as SCIM errors', async () => {
      expectScimError(await scim.get('/Printers'), 404);
      expectScimError(await scim.get('/Users/00000000-0000-4000-8000-000000000000'), 404);
      expectScimError(await scim.post('/Users', { userName: 'not an email', name: { formatted: 'X' } }), 400, 'invalidValue');
      expectScimError(await scim.post('/Users', { name: { formatted: 'No user name' } }), 400, 'invalidValue');
      expectScimError(await scim.post('/Users', oktaUser(uniqueEmail(), { roles: [{ value: 'owner' }] })), 400, 'invalidValue');
      expectScimError(await scim.post('/Users', oktaUser(uniqueEmail()), { 'content-type': 'text/plain' }), 415);
      const broken = await fetch(`${server.url}/scim/v2/Users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${scim.token}`, 'content-type': 'application/scim+json' },
        body: '{"userName": ',
      });
      assert.equal(broken.status, 400);
      assert.equal(((await broken.json()) as any).status, '400');
    });
  });

  describe('Users', () => {
    it('creates a user with the mapping: 201, Location, ETag = meta.version; the API sees the same user', async () => {
      const manager = await createUser();
      const email = uniqueEmail('mapped');
      const created = await scim.post(
        '/Users',
        oktaUser(email, {
          roles: [{ value: 'organizer', primary: 'True' }],
          [ENTERPRISE]: { employeeNumber: 'E-77', manager: { value: manager.id } },
        }),
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const user = created.body;
      assert.equal(created.headers.get('location'), user.meta.location);
      assert.match(user.meta.location, new RegExp(`/scim/v2/Users/${user.id}$`));
      assert.equal(created.headers.get('etag'), user.meta.version);
      assert.equal(user.userName, email);
      assert.deepEqual(user.name, { formatted: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' });
      assert.deepEqual(user.emails, [{ value: email, type: 'work', primary: true }]);
      assert.equal(user.active, true);
      assert.equal(user.externalId, `okta-${email}`);
      assert.equal(user.roles[0].value, 'organizer');
      assert.equal(user[ENTERPRISE].employeeNumber, 'E-77');
      assert.equal(user[ENTERPRISE].manager.value, manager.id);
      assert.equal(user.meta.resourceType, 'User');

      const api = await server.api.get(`/api/v2/users/${user.id}/`);
      assert.equal(api.status, 200, api.text);
      assert.equal(api.body.email, email);
      assert.equal(api.body.name, 'Ada Lovelace');
      assert.equal(api.body.role, 'organizer');
      assert.equal(api.body.employee_id, 'E-77');
      assert.equal(api.body.manager.public_id, manager.id);

      const read = await scim.get(`/Users/${user.id}`);
      assert.deepEqual(read.body, user);
      assert.equal(read.headers.get('etag'), user.meta.version);
      assert.equal((await scim.get(`/Users/${user.id}`, { 'if-none-match': user.meta.version })).status, 304);
    });

    it('refuses a taken userName, in any case, with 409 uniqueness', async () => {
      const user = await createUser();
      expectScimError(await scim.post('/Users', oktaUser(user.userName.toUpperCase())), 409, 'uniqueness');
      const other = await createUser();
      expectScimError(
        await scim.patch(`/Users/${other.id}`, patchOp({ op: 'replace', path: 'userName', value: user.userName })),
        409,
        'uniqueness',
      );
    });

    it('records the audit entries of the API, done by the token’s user', async () => {
      const user = await createUser();
      await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'name.formatted', value: 'Ada King' }));
      const log = await server.api.get(`/api/v2/audit-log/?resource_id=${user.id}`);
      assert.equal(log.status, 200, log.text);
      const actions = log.body.data.map((entry: any) => entry.action).sort();
      assert.deepEqual(actions, ['user.created', 'user.updated']);
      for (const entry of log.body.data) assert.equal(entry.actor.public_id, adminPublicId);
      const updated = log.body.data.find((entry: any) => entry.action === 'user.updated');
      assert.deepEqual(updated.changes.name, { from: 'Ada Lovelace', to: 'Ada King' });
    });

    it('replaces with PUT and honours If-Match', async () => {
      const user = await createUser();
      const stale = user.meta.version;
      const replaced = await scim.put(
        `/Users/${user.id}`,
        { schemas: user.schemas, userName: user.userName, name: { formatted: 'Grace Hopper' }, active: true },
        { 'if-match': stale },
      );
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.equal(replaced.body.name.formatted, 'Grace Hopper');
      assert.equal(replaced.body.externalId, undefined, 'a PUT without externalId clears it');
      assert.notEqual(replaced.body.meta.version, stale);
      expectScimError(await scim.put(`/Users/${user.id}`, oktaUser(user.userName), { 'if-match': stale }), 412);
      expectScimError(
        await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'active', value: false }), { 'if-match': stale }),
        412,
      );
      const stillActive = await scim.get(`/Users/${user.id}`);
      assert.equal(stillActive.body.active, true);
    });

    it('patches with the identity providers’ quirks: capitalised ops, "False", no path with an object, filtered paths', async () => {
      const user = await createUser();
      const path = `/Users/${user.id}`;
      let patched = await scim.patch(path, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.active, false);
      patched = await scim.patch(
        path,
        patchOp({ op: 'replace', value: { active: 'True', 'name.formatted': 'Ada B. Lovelace', externalId: 'x-1' } }),
      );
      assert.equal(patched.body.active, true);
      assert.equal(patched.body.name.formatted, 'Ada B. Lovelace');
      assert.equal(patched.body.externalId, 'x-1');
      const newEmail = uniqueEmail('renamed');
      patched = await scim.patch(path, patchOp({ op: 'Add', path: 'emails[type eq "work"].value', value: newEmail }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.userName, newEmail, 'the work email and userName are one');
      assert.equal(patched.body.emails[0].value, newEmail);
      patched = await scim.patch(
        path,
        patchOp(
          { op: 'add', path: `${ENTERPRISE}:employeeNumber`, value: 'E-9' },
          { op: 'replace', path: 'roles', value: [{ value: 'admin', primary: true }] },
        ),
      );
      assert.equal(patched.body[ENTERPRISE].employeeNumber, 'E-9');
      assert.equal(patched.body.roles[0].value, 'admin');
      patched = await scim.patch(
        path,
        patchOp({ op: 'remove', path: 'externalId' }, { op: 'remove', path: `${ENTERPRISE}:employeeNumber` }),
      );
      assert.equal(patched.body.externalId, undefined);
      assert.equal(patched.body[ENTERPRISE]?.employeeNumber, undefined);
      expectScimError(await scim.patch(path, patchOp({ op: 'move', path: 'active', value: false })), 400, 'invalidSyntax');
      expectScimError(await scim.patch(path, { Operations: [] }), 400, 'invalidSyntax');
    });

    it('DELETE deactivates: SCIM answers 404 afterwards, the API keeps the user inactive, and a new POST brings it back', async () => {
      const user = await createUser();
      const deleted = await scim.delete(`/Users/${user.id}`);
      assert.equal(deleted.status, 204);
      expectScimError(await scim.get(`/Users/${user.id}`), 404);
      expectScimError(await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'active', value: true })), 404);
      const listed = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`);
      assert.equal(listed.body.totalResults, 0);
      const api = await server.api.get(`/api/v2/users/${user.id}/`);
      assert.equal(api.status, 200);
      assert.equal(api.body.is_active, false);
      const again = await scim.post('/Users', oktaUser(user.userName));
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.equal(again.body.id, user.id);
      assert.equal(again.body.active, true);
    });
  });

  describe('filters and paging', () => {
    const stamp = `f${process.pid}${Date.now()}`;
    const emails = Array.from({ length: 5 }, (_, i) => `${stamp}.${i}@filter.example.com`);
    const ids: string[] = [];

    before(async () => {
      for (const [i, email] of emails.entries()) {
        const created = await scim.post('/Users', oktaUser(email, { externalId: `${stamp}-${i}`, active: i !== 4 }));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        ids.push(created.body.id);
      }
    });

    const found = async (filter: string, query = '') => {
      const response = await scim.get(`/Users?filter=${encodeURIComponent(filter)}${query}`);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.deepEqual(response.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
      return response.body;
    };
    const idsOf = (list: any) => list.Resources.map((user: any) => user.id).sort();
    const at = (...indexes: number[]) => indexes.map((i) => ids[i]).sort();

    it('resolves each operator, and/or/not and parentheses, on the supported attributes', async () => {
      assert.deepEqual(idsOf(await found(`userName eq "${emails[0]!.toUpperCase()}"`)), at(0), 'userName ignores case');
      assert.deepEqual(idsOf(await found(`emails.value eq "${emails[1]}"`)), at(1));
      assert.deepEqual(idsOf(await found(`emails[value eq "${emails[1]}"]`)), at(1));
      assert.deepEqual(idsOf(await found(`externalId eq "${stamp}-2"`)), at(2));
      assert.deepEqual(idsOf(await found(`externalId eq "${stamp.toUpperCase()}-2"`)), [], 'externalId is case-exact');
      assert.deepEqual(idsOf(await found(`userName sw "${stamp}." and active eq false`)), at(4));
      assert.deepEqual(idsOf(await found(`userName sw "${stamp}." and active eq "False"`)), at(4));
      assert.deepEqual(idsOf(await found(`userName co "${stamp}.3@" or externalId eq "${stamp}-0"`)), at(0, 3));
      assert.deepEqual(idsOf(await found(`userName ew "${stamp}.1@filter.example.com"`)), at(1));
      assert.deepEqual(
        idsOf(await found(`userName sw "${stamp}." and not (externalId eq "${stamp}-0" or (active eq false))`)),
        at(1, 2, 3),
      );
      assert.deepEqual(idsOf(await found(`userName sw "${stamp}." and externalId ne "${stamp}-1"`)), at(0, 2, 3, 4));
      assert.deepEqual(idsOf(await found(`externalId sw "${stamp}-" and externalId pr`)), at(0, 1, 2, 3, 4));
      assert.deepEqual(idsOf(await found(`externalId gt "${stamp}-2" and externalId le "${stamp}-4"`)), at(3, 4));
      assert.equal((await found(`userName sw "${stamp}." and meta.created ge "2020-01-01T00:00:00Z"`)).totalResults, 5);
      assert.equal((await found(`userName sw "${stamp}." and meta.lastModified lt "2020-01-01T00:00:00Z"`)).totalResults, 0);
    });

    it('refuses an unsupported or malformed filter with 400 invalidFilter', async () => {
      for (const filter of [
        'nickName eq "x"',
        'userName eq',
        'userName eq "a" garbage',
        'active gt true',
        'meta.created gt "soon"',
        '(userName eq "a"',
      ]) {
        const response = await scim.get(`/Users?filter=${encodeURIComponent(filter)}`);
        expectScimError(response, 400, 'invalidFilter');
      }
    });

    it('pages with a 1-based startIndex and count (default 100, at most 200)', async () => {
      const filter = `userName sw "${stamp}."`;
      const all = await found(filter);
      assert.equal(all.totalResults, 5);
      assert.equal(all.startIndex, 1);
      assert.equal(all.itemsPerPage, 5);
      const window = await found(filter, '&startIndex=2&count=2');
      assert.equal(window.totalResults, 5);
      assert.equal(window.startIndex, 2);
      assert.deepEqual(
        window.Resources.map((user: any) => user.id),
        all.Resources.slice(1, 3).map((user: any) => user.id),
      );
      const tail = await found(filter, '&startIndex=5&count=10');
      assert.deepEqual(
        tail.Resources.map((user: any) => user.id),
        [all.Resources[4].id],
      );
      assert.equal((await found(filter, '&startIndex=0&count=0')).itemsPerPage, 0);
      const capped = await scim.get('/Users?count=100000');
      assert.equal(capped.status, 200);
      assert.ok(capped.body.Resources.length <= 200);
      expectScimError(await scim.get('/Users?count=many'), 400, 'invalidValue');
    });
  });

  describe('deactivation ends tokens and console sessions at once', () => {
    const sessionOf = async (email: string) => {
      const cli = await runCli(['console-url', '--db', server.dbFile, '--email', email]);
      assert.equal(cli.code, 0, cli.stderr);
      const code = /code=([A-Za-z0-9_-]{43})/.exec(cli.stdout)![1];
      const exchanged = await server.api.post('/api/v2/console/sign-in/', { code }, { token: null });
      assert.equal(exchanged.status, 201, exchanged.text);
      return exchanged.body.token as string;
    };
    const tokenOf = async (email: string) => {
      return (await cliToken(server.dbFile, email, 'laptop')).token as string;
    };
    // every server answers (on PostgreSQL, the client alternates between two)
    const status = async (token: string) => {
      const answers = new Set<number>();
      for (let i = 0; i < 4; i++) answers.add((await server.api.get('/api/v2/me/', { token })).status);
      return [...answers];
    };

    for (const route of ['SCIM active false', 'SCIM DELETE', 'the API']) {
      it(`by ${route}`, async () => {
        const user = await createUser();
        const tokens = [await tokenOf(user.userName), await sessionOf(user.userName)];
        for (const token of tokens) assert.deepEqual(await status(token), [200]);

        if (route === 'SCIM active false') {
          const patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', value: { active: false } }));
          assert.equal(patched.status, 200, JSON.stringify(patched.body));
        } else if (route === 'SCIM DELETE') {
          assert.equal((await scim.delete(`/Users/${user.id}`)).status, 204);
        } else {
          const patched = await server.api.patch(`/api/v2/users/${user.id}/`, { is_active: false });
          assert.equal(patched.status, 200, patched.text);
        }
        for (const token of tokens) assert.deepEqual(await status(token), [401]);

        const log = await server.api.get(`/api/v2/audit-log/?action=api_token.revoked&actor=${adminPublicId}`);
        const revoked = new Set(log.body.data.map((entry: any) => entry.resource.public_id));
        const listed = await server.api.get(`/api/v2/api-tokens/?user=${user.id}`);
        assert.equal(listed.body.data.length, 0, 'no live token is left');
        assert.ok(revoked.size >= 2);

        // activated again, the user's old tokens stay revoked
        const reactivated = await server.api.patch(`/api/v2/users/${user.id}/`, { is_active: true });
        assert.equal(reactivated.status, 200, reactivated.text);
        for (const token of tokens) assert.deepEqual(await status(token), [401]);
      });
    }
  });

  describe('Groups', () => {
    const members = async (count: number) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await createUser()).id);
      return ids;
    };

    it('creates a group with members; a taken displayName is 409 uniqueness; the API sees it', async () => {
      const ids = await members(2);
      const name = `Engineering ${process.pid} ${Date.now()}`;
      const created = await scim.post('/Groups', {
        schemas: [SCIM_GROUP],
        displayName: name,
        externalId: 'grp-1',
        members: ids.map((value) => ({ value })),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const group = created.body;
      assert.equal(created.headers.get('location'), group.meta.location);
      assert.equal(created.headers.get('etag'), group.meta.version);
      assert.equal(group.displayName, name);
      assert.equal(group.externalId, 'grp-1');
      assert.deepEqual(group.members.map((member: any) => member.value).sort(), [...ids].sort());
      expectScimError(await scim.post('/Groups', { schemas: [SCIM_GROUP], displayName: name.toLowerCase() }), 409, 'uniqueness');
      const api = await server.api.get(`/api/v2/groups/${group.id}/`);
      assert.equal(api.status, 200, api.text);
      assert.equal(api.body.member_count, 2);
      assert.equal(api.body.source, 'scim');
      expectScimError(await scim.post('/Groups', { displayName: `${name} x`, members: [{ value: 'no-such-user' }] }), 400, 'invalidValue');
    });

    it('filters on displayName, externalId and members.value; leaves members out on request', async () => {
      const ids = await members(1);
      const name = `Filtered ${process.pid} ${Date.now()}`;
      const group = (await scim.post('/Groups', { displayName: name, externalId: `ext-${name}`, members: [{ value: ids[0] }] })).body;
      const byName = await scim.get(
        `/Groups?filter=${encodeURIComponent(`displayName eq "${name.toUpperCase()}"`)}&excludedAttributes=members`,
      );
      assert.equal(byName.status, 200, JSON.stringify(byName.body));
      assert.deepEqual(
        byName.body.Resources.map((g: any) => g.id),
        [group.id],
      );
      assert.equal(byName.body.Resources[0].members, undefined);
      const byMember = await scim.get(`/Groups?filter=${encodeURIComponent(`members.value eq "${ids[0]}"`)}`);
      assert.deepEqual(
        byMember.body.Resources.map((g: any) => g.id),
        [group.id],
      );
      const byExternal = await scim.get(`/Groups?filter=${encodeURIComponent(`externalId eq "ext-${name}"`)}`);
      assert.deepEqual(
        byExternal.body.Resources.map((g: any) => g.id),
        [group.id],
      );
      expectScimError(await scim.get(`/Groups?filter=${encodeURIComponent('owners.value eq "x"')}`), 400, 'invalidFilter');
      assert.equal((await scim.get(`/Groups/${group.id}?excludedAttributes=members`)).body.members, undefined);
    });

    it('patches members: add, remove by filter and by value, replace, rename; hundreds in one request', async () => {
      const ids = await members(3);
      const group = (await scim.post('/Groups', { displayName: `Patched ${process.pid} ${Date.now()}` })).body;
      const path = `/Groups/${group.id}`;
      let patched = await scim.patch(path, patchOp({ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.members.length, 3);
      patched = await scim.patch(path, patchOp({ op: 'remove', path: `members[value eq "${ids[0]}"]` }));
      assert.deepEqual(patched.body.members.map((m: any) => m.value).sort(), [ids[1], ids[2]].sort());
      patched = await scim.patch(path, patchOp({ op: 'Remove', path: 'members', value: [{ value: ids[1] }] }));
      assert.deepEqual(
        patched.body.members.map((m: any) => m.value),
        [ids[2]],
      );
      patched = await scim.patch(path, patchOp({ op: 'replace', path: 'displayName', value: `${group.displayName} (renamed)` }));
      assert.equal(patched.body.displayName, `${group.displayName} (renamed)`);
      patched = await scim.patch(path, patchOp({ op: 'replace', value: { displayName: group.displayName, externalId: 'okta-g' } }));
      assert.equal(patched.body.displayName, group.displayName);
      assert.equal(patched.body.externalId, 'okta-g');
      // a filter that selects no member is 400 noTarget (RFC 7644 §3.5.2), and the group stays as it was
      expectScimError(await scim.patch(path, patchOp({ op: 'remove', path: `members[value eq "${ids[0]}"]` })), 400, 'noTarget');
      // Entra's remove by value list names members, not a filter: one already gone is no error
      const again = await scim.patch(path, patchOp({ op: 'Remove', path: 'members', value: [{ value: ids[0] }] }));
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(
        again.body.members.map((m: any) => m.value),
        [ids[2]],
      );
      expectScimError(await scim.patch(path, patchOp({ op: 'remove', path: 'members[value eq' })), 400);

      // hundreds of members in one request: 300 users made through the API's bulk route
      const prefix = `many${process.pid}${Date.now()}`;
      const many = await server.api.post('/api/v2/users/bulk/', {
        users: Array.from({ length: 300 }, (_, i) => ({ email: `${prefix}.${i}@bulk.example.com`, name: `Bulk ${i}` })),
      });
      assert.equal(many.status, 202, many.text);
      const { waitForJob } = await import('../helpers/bulk-jobs.ts');
      await waitForJob(server.api, `/api/v2/users/bulk/${many.body.id}/`);
      const bulkIds: string[] = [];
      for (const startIndex of [1, 201]) {
        const page = await scim.get(`/Users?filter=${encodeURIComponent(`userName sw "${prefix}."`)}&startIndex=${startIndex}&count=200`);
        bulkIds.push(...page.body.Resources.map((user: any) => user.id));
      }
      assert.equal(new Set(bulkIds).size, 300);
      patched = await scim.patch(path, patchOp({ op: 'add', path: 'members', value: bulkIds.map((value: string) => ({ value })) }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body).slice(0, 500));
      assert.equal(patched.body.members.length, 301);
      const api = await server.api.get(`/api/v2/groups/${group.id}/`);
      assert.equal(api.body.member_count, 301);
      const log = await server.api.get(`/api/v2/audit-log/?resource_id=${group.id}&action=group.members_changed`);
      assert.equal(log.body.data.length, 4, 'one entry per change of members, none for a change that changed nothing');
    });

    it('replaces with PUT (If-Match) and deletes as the API does', async () => {
      const ids = await members(2);
      const group = (await scim.post('/Groups', { displayName: `Put ${process.pid} ${Date.now()}`, members: [{ value: ids[0] }] })).body;
      const replaced = await scim.put(
        `/Groups/${group.id}`,
        { displayName: group.displayName, members: [{ value: ids[1] }] },
        { 'if-match': group.meta.version },
      );
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.deepEqual(
        replaced.body.members.map((m: any) => m.value),
        [ids[1]],
      );
      expectScimError(await scim.put(`/Groups/${group.id}`, { displayName: 'x' }, { 'if-match': group.meta.version }), 412);
      expectScimError(await scim.delete(`/Groups/${group.id}`, { 'if-match': group.meta.version }), 412);
      assert.equal((await scim.delete(`/Groups/${group.id}`)).status, 204);
      expectScimError(await scim.get(`/Groups/${group.id}`), 404);
      assert.equal((await server.api.get(`/api/v2/groups/${group.id}/`)).status, 404);
      const log = await server.api.get(`/api/v2/audit-log/?resource_id=${group.id}&action=group.deleted`);
      assert.equal(log.body.data[0].actor.public_id, adminPublicId);
    });
  });
});
