/**
 * SCIM 2.0 beyond the basics (docs/identity.md): the one name as name parts, secondary emails,
 * `attributes`/`excludedAttributes`, POST `.search`, `sortBy`/`sortOrder`, and PATCH `noTarget`.
 * On PostgreSQL every request alternates between two servers.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { ENTERPRISE, expectScimError, oktaUser, patchOp, ScimClient, SCIM_GROUP, SCIM_USER } from '../helpers/scim-client.ts';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const filterQuery = (filter: string) => `filter=${encodeURIComponent(filter)}`;

describe('SCIM 2.0 queries and mapping', () => {
  const server = useServer();
  let scim: ScimClient;

  before(async () => {
    const issued = await server.api.post('/api/v2/api-tokens/', { name: 'identity provider', scopes: ['scim:write'] });
    assert.equal(issued.status, 201, issued.text);
    scim = ScimClient.of(server, issued.body.token);
  });

  const createUser = async (body: object) => {
    const created = await scim.post('/Users', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body;
  };

  describe('name and emails', () => {
    it('maps givenName + familyName to the one name and back, and the API sees the same name', async () => {
      const email = uniqueEmail('parts');
      const user = await createUser({ schemas: [SCIM_USER], userName: email, name: { givenName: 'Mary Ann', familyName: 'Evans' } });
      assert.deepEqual(user.name, { formatted: 'Mary Ann Evans', givenName: 'Mary Ann', familyName: 'Evans' });
      assert.equal(user.displayName, 'Mary Ann Evans');
      const api = await server.api.get(`/api/v2/users/${user.id}/`);
      assert.equal(api.body.name, 'Mary Ann Evans');

      // formatted wins over the parts; displayName is used when there is no name at all; else the userName
      const formatted = await createUser({
        userName: uniqueEmail('formatted'),
        name: { formatted: 'George Eliot', givenName: 'Mary', familyName: 'Evans' },
      });
      assert.deepEqual(formatted.name, { formatted: 'George Eliot', givenName: 'George', familyName: 'Eliot' });
      const display = await createUser({ userName: uniqueEmail('display'), displayName: 'Plato' });
      assert.deepEqual(display.name, { formatted: 'Plato', givenName: 'Plato' });
      const bare = uniqueEmail('bare');
      assert.equal((await createUser({ userName: bare })).name.formatted, bare);
    });

    it('renames through a PATCH of one part, of displayName, or of formatted; the API follows', async () => {
      const user = await createUser(oktaUser(uniqueEmail('rename')));
      let patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'name.givenName', value: 'Augusta Ada' }));
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.name, { formatted: 'Augusta Ada Lovelace', givenName: 'Augusta Ada', familyName: 'Lovelace' });
      patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'Replace', value: { 'name.familyName': 'King' } }));
      assert.equal(patched.body.name.formatted, 'Augusta Ada King');
      patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'Ada King' }));
      assert.equal(patched.body.name.formatted, 'Ada King');
      patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'name.formatted', value: 'Countess of Lovelace' }));
      assert.deepEqual(patched.body.name, { formatted: 'Countess of Lovelace', givenName: 'Countess of', familyName: 'Lovelace' });
      assert.equal((await server.api.get(`/api/v2/users/${user.id}/`)).body.name, 'Countess of Lovelace');
    });

    it('takes secondary emails and ignores them: the userName stays the one email; two primaries are refused', async () => {
      const email = uniqueEmail('multi');
      const user = await createUser(
        oktaUser(email, {
          emails: [
            { value: email, type: 'work', primary: true },
            { value: uniqueEmail('home'), type: 'home' },
          ],
        }),
      );
      assert.deepEqual(user.emails, [{ value: email, type: 'work', primary: true }]);
      const added = await scim.patch(
        `/Users/${user.id}`,
        patchOp({ op: 'add', path: 'emails', value: [{ value: uniqueEmail('other'), type: 'other' }] }),
      );
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.equal(added.body.userName, email);
      assert.deepEqual(added.body.emails, [{ value: email, type: 'work', primary: true }]);
      const twice = oktaUser(uniqueEmail('twice'), {
        emails: [
          { value: uniqueEmail('a'), primary: true },
          { value: uniqueEmail('b'), primary: 'True' },
        ],
      });
      expectScimError(await scim.post('/Users', twice), 400, 'invalidValue');
    });
  });

  describe('attributes and excludedAttributes', () => {
    it('returns only the asked attributes (plus id, schemas, meta) on GET of a user and of the list', async () => {
      const email = uniqueEmail('attrs');
      const user = await createUser(oktaUser(email, { [ENTERPRISE]: { employeeNumber: 'E-1' } }));
      const one = await scim.get(`/Users/${user.id}?attributes=userName,name.familyName,emails.value,${ENTERPRISE}:employeeNumber`);
      assert.equal(one.status, 200);
      assert.deepEqual(Object.keys(one.body).sort(), ['emails', 'id', 'meta', 'name', 'schemas', 'userName', ENTERPRISE].sort());
      assert.deepEqual(one.body.name, { familyName: 'Lovelace' });
      assert.deepEqual(one.body.emails, [{ value: email }]);
      assert.deepEqual(one.body[ENTERPRISE], { employeeNumber: 'E-1' });
      assert.deepEqual(one.body.meta, user.meta);

      // names ignore case and may carry the core schema's URN
      const urn = await scim.get(`/Users?${filterQuery(`userName eq "${email}"`)}&attributes=${SCIM_USER}:USERNAME,Active`);
      assert.deepEqual(urn.body.Resources, [{ schemas: user.schemas, id: user.id, userName: email, active: true, meta: user.meta }]);
      assert.equal(urn.body.totalResults, 1);
    });

    it('leaves out excluded attributes but never id, schemas or meta; unknown names are ignored', async () => {
      const email = uniqueEmail('excluded');
      const user = await createUser(oktaUser(email));
      const got = await scim.get(`/Users/${user.id}?excludedAttributes=emails,name.givenName,id,meta,schemas,${ENTERPRISE},noSuchThing`);
      assert.equal(got.status, 200);
      assert.equal(got.body.emails, undefined);
      assert.equal(got.body[ENTERPRISE], undefined);
      assert.deepEqual(got.body.name, { formatted: 'Ada Lovelace', familyName: 'Lovelace' });
      assert.equal(got.body.id, user.id);
      assert.deepEqual(got.body.meta, user.meta);
      assert.deepEqual(got.body.schemas, user.schemas);
      assert.equal(got.body.userName, email);
    });

    it('projects groups: attributes without members leaves the member list out, members.value keeps only ids', async () => {
      const member = await createUser(oktaUser(uniqueEmail('member')));
      const group = (
        await scim.post('/Groups', {
          schemas: [SCIM_GROUP],
          displayName: `Projected ${process.pid} ${Date.now()}`,
          members: [{ value: member.id }],
        })
      ).body;
      const named = await scim.get(`/Groups/${group.id}?attributes=displayName`);
      assert.deepEqual(Object.keys(named.body).sort(), ['displayName', 'id', 'meta', 'schemas']);
      const ids = await scim.get(`/Groups?${filterQuery(`id eq "${group.id}"`)}&attributes=members.value`);
      assert.deepEqual(ids.body.Resources[0].members, [{ value: member.id }]);
      assert.equal(ids.body.Resources[0].displayName, undefined);
    });

    it('applies to the answers of POST, PUT and PATCH too (RFC 7644 §3.9)', async () => {
      const email = uniqueEmail('written');
      const created = await scim.post('/Users?attributes=userName', oktaUser(email));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(Object.keys(created.body).sort(), ['id', 'meta', 'schemas', 'userName']);
      assert.equal(created.headers.get('etag'), created.body.meta.version);
      const path = `/Users/${created.body.id}`;
      const put = await scim.put(`${path}?excludedAttributes=emails,name`, { userName: email, name: { formatted: 'Put Name' } });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.emails, undefined);
      assert.equal(put.body.name, undefined);
      assert.equal(put.body.displayName, 'Put Name');
      const patched = await scim.patch(
        `${path}?attributes=name.familyName`,
        patchOp({ op: 'replace', path: 'name.familyName', value: 'Patched' }),
      );
      assert.deepEqual(patched.body.name, { familyName: 'Patched' });
      const group = await scim.post('/Groups?excludedAttributes=members', {
        displayName: `Written ${process.pid} ${Date.now()}`,
        members: [{ value: created.body.id }],
      });
      assert.equal(group.status, 201, JSON.stringify(group.body));
      assert.equal(group.body.members, undefined);
      assert.equal((await scim.get(`/Groups/${group.body.id}`)).body.members.length, 1);
    });
  });

  describe('POST .search', () => {
    it('searches users with filter, startIndex, count, attributes and sortBy in the body', async () => {
      const prefix = `search${process.pid}${Date.now()}`;
      const emails = ['c', 'a', 'b'].map((letter) => `${prefix}.${letter}@example.com`);
      for (const email of emails) await createUser(oktaUser(email));
      const found = await scim.post('/Users/.search', {
        schemas: [SEARCH],
        filter: `userName sw "${prefix}."`,
        attributes: ['userName'],
        sortBy: 'userName',
        sortOrder: 'descending',
        startIndex: 2,
        count: 5,
      });
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.equal(found.body.totalResults, 3);
      assert.equal(found.body.startIndex, 2);
      assert.equal(found.body.itemsPerPage, 2);
      assert.deepEqual(
        found.body.Resources.map((user: any) => [user.userName, user.name]),
        [
          [`${prefix}.b@example.com`, undefined],
          [`${prefix}.a@example.com`, undefined],
        ],
      );
      expectScimError(await scim.post('/Users/.search', { schemas: [SEARCH], filter: 'userName eq' }), 400, 'invalidFilter');
      expectScimError(await scim.post('/Users/.search', { schemas: ['urn:example:not-a-search'] }), 400, 'invalidSyntax');
      expectScimError(await scim.post('/Users/.search', { schemas: [SEARCH], count: 'many' }), 400, 'invalidValue');
    });

    it('searches groups, members excluded', async () => {
      const name = `Searched ${process.pid} ${Date.now()}`;
      const member = await createUser(oktaUser(uniqueEmail('searched')));
      const group = (await scim.post('/Groups', { displayName: name, members: [{ value: member.id }] })).body;
      const found = await scim.post('/Groups/.search', {
        schemas: [SEARCH],
        filter: `displayName eq "${name}"`,
        excludedAttributes: ['members'],
      });
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        found.body.Resources.map((item: any) => [item.id, item.displayName, item.members]),
        [[group.id, name, undefined]],
      );
    });
  });

  describe('sortBy and sortOrder', () => {
    /** The list's order as indexes into `made`. */
    const sortedIndexes = async (endpoint: string, filter: string, made: any[], sortBy: string, sortOrder?: string) => {
      const query = `${filterQuery(filter)}&sortBy=${encodeURIComponent(sortBy)}${sortOrder ? `&sortOrder=${sortOrder}` : ''}`;
      const list = await scim.get(`${endpoint}?${query}`);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      return list.body.Resources.map((resource: any) => made.findIndex((item) => item.id === resource.id));
    };

    it('sorts users by userName, name (ignoring case), created and lastModified, both ways', async () => {
      const prefix = `sorted${process.pid}${Date.now()}`;
      // email order c, b, a; name order (ignoring case) alice, Bob, carl; created order 0, 1, 2
      const made: any[] = [];
      for (const [letter, name] of [
        ['c', 'alice Young'],
        ['b', 'Bob Zed'],
        ['a', 'carl Xu'],
      ] as const) {
        made.push(await createUser({ userName: `${prefix}.${letter}@example.com`, name: { formatted: name } }));
      }
      // modified order: 2, 0, 1 (a rename that keeps the name order)
      for (const index of [2, 0, 1]) {
        const value = `${made[index].name.formatted} Jr`;
        const patched = await scim.patch(`/Users/${made[index].id}`, patchOp({ op: 'replace', path: 'name.formatted', value }));
        assert.equal(patched.status, 200);
      }
      const order = (sortBy: string, sortOrder?: string) => sortedIndexes('/Users', `userName sw "${prefix}."`, made, sortBy, sortOrder);
      assert.deepEqual(await order('userName'), [2, 1, 0]);
      assert.deepEqual(await order('emails.value', 'descending'), [0, 1, 2]);
      assert.deepEqual(await order('name.formatted'), [0, 1, 2]);
      assert.deepEqual(await order('name.givenName', 'descending'), [2, 1, 0]);
      assert.deepEqual(await order('displayName', 'ASCENDING'), [0, 1, 2]);
      assert.deepEqual(await order('meta.created', 'descending'), [2, 1, 0]);
      assert.deepEqual(await order('meta.lastModified'), [2, 0, 1]);
      assert.deepEqual(await order('meta.lastModified', 'descending'), [1, 0, 2]);
      expectScimError(await scim.get(`/Users?sortBy=name.familyName`), 400, 'invalidValue');
      expectScimError(await scim.get(`/Users?sortBy=userName&sortOrder=sideways`), 400, 'invalidValue');
    });

    it('sorts groups by displayName, created and lastModified', async () => {
      const prefix = `Sorted ${process.pid} ${Date.now()}`;
      const made: any[] = [];
      for (const suffix of ['b', 'C', 'a']) made.push((await scim.post('/Groups', { displayName: `${prefix} ${suffix}` })).body);
      await scim.patch(`/Groups/${made[0].id}`, patchOp({ op: 'replace', path: 'externalId', value: 'g-0' }));
      await scim.patch(`/Groups/${made[0].id}`, patchOp({ op: 'replace', path: 'displayName', value: `${prefix} b2` }));
      const order = (sortBy: string, sortOrder?: string) => sortedIndexes('/Groups', `displayName sw "${prefix}"`, made, sortBy, sortOrder);
      assert.deepEqual(await order('displayName'), [2, 0, 1]);
      assert.deepEqual(await order('displayName', 'descending'), [1, 0, 2]);
      assert.deepEqual(await order('meta.created'), [0, 1, 2]);
      assert.deepEqual(await order('meta.lastModified', 'descending'), [0, 2, 1]);
    });
  });

  describe('PATCH errors', () => {
    it('answers 400 noTarget when a filtered path selects nothing, and changes nothing', async () => {
      const email = uniqueEmail('target');
      const user = await createUser(oktaUser(email));
      const path = `/Users/${user.id}`;
      expectScimError(
        await scim.patch(path, patchOp({ op: 'replace', path: 'emails[type eq "home"].value', value: uniqueEmail() })),
        400,
        'noTarget',
      );
      expectScimError(await scim.patch(path, patchOp({ op: 'remove', path: 'emails[type eq "home"]' })), 400, 'noTarget');
      expectScimError(
        await scim.patch(path, patchOp({ op: 'replace', path: 'roles[value eq "admin"].value', value: 'user' })),
        400,
        'noTarget',
      );
      // a later operation of the same request that misses undoes the earlier ones
      const mixed = patchOp(
        { op: 'replace', path: 'name.formatted', value: 'Not Applied' },
        { op: 'remove', path: 'emails[value eq "nobody@example.com"]' },
      );
      expectScimError(await scim.patch(path, mixed), 400, 'noTarget');
      const after = await scim.get(path);
      assert.equal(after.body.name.formatted, 'Ada Lovelace');
      assert.equal(after.body.meta.version, user.meta.version);
      // a match is applied; an attribute Lectern does not keep is ignored rather than refused
      const changed = uniqueEmail('changed');
      const applied = await scim.patch(
        path,
        patchOp(
          { op: 'replace', path: 'emails[type eq "work"].value', value: changed },
          { op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
        ),
      );
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
      assert.equal(applied.body.userName, changed);
      expectScimError(await scim.patch(path, patchOp({ op: 'remove' })), 400, 'noTarget');
    });

    it('answers 400 mutability to a PATCH of id or meta, and changes nothing', async () => {
      const user = await createUser(oktaUser(uniqueEmail('readonly')));
      const path = `/Users/${user.id}`;
      const other = '00000000-0000-4000-8000-000000000000';
      expectScimError(await scim.patch(path, patchOp({ op: 'replace', path: 'id', value: other })), 400, 'mutability');
      expectScimError(await scim.patch(path, patchOp({ op: 'replace', path: 'meta.version', value: 'W/"x"' })), 400, 'mutability');
      const mixed = patchOp({ op: 'replace', value: { id: other, 'name.formatted': 'Not Applied' } });
      expectScimError(await scim.patch(path, mixed), 400, 'mutability');
      const group = (await scim.post('/Groups', { displayName: `Read-only ${process.pid} ${Date.now()}` })).body;
      expectScimError(await scim.patch(`/Groups/${group.id}`, patchOp({ op: 'remove', path: 'meta' })), 400, 'mutability');
      const after = await scim.get(path);
      assert.equal(after.body.id, user.id);
      assert.deepEqual(after.body.meta, user.meta);
    });
  });
});
