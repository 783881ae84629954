/**
 * SCIM 2.0 cases the scim2-tester compliance suite found wanting (docs/identity.md, "Compliance"):
 * every attribute an answer carries is declared in the Schemas document, references (`$ref`) are
 * declared and accepted, a PATCH may address the enterprise extension by its schema URN, a new
 * primary value takes over from the old one, and an empty group answers without `members`.
 * On PostgreSQL every request alternates between two servers.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { ENTERPRISE, expectScimError, oktaUser, patchOp, ScimClient, SCIM_GROUP, SCIM_USER } from '../helpers/scim-client.ts';

interface SchemaAttribute {
  name: string;
  type: string;
  mutability: string;
  referenceTypes?: string[];
  subAttributes?: SchemaAttribute[];
}

/** Every attribute of `value` is declared by `attributes` (sub-attributes too): the answer matches the served schema. */
function assertDeclared(value: Record<string, unknown>, attributes: SchemaAttribute[], where: string): void {
  const declared = new Map(attributes.map((attribute) => [attribute.name, attribute]));
  for (const [name, content] of Object.entries(value)) {
    const attribute = declared.get(name);
    assert.ok(attribute, `${where}.${name} is not declared in the schema`);
    if (!attribute.subAttributes) continue;
    for (const element of Array.isArray(content) ? content : [content]) {
      assertDeclared(element as Record<string, unknown>, attribute.subAttributes, `${where}.${name}`);
    }
  }
}

describe('SCIM 2.0 compliance (cases from scim2-tester)', () => {
  const server = useServer();
  let scim: ScimClient;
  const schemaOf = new Map<string, SchemaAttribute[]>();

  before(async () => {
    const issued = await server.api.post('/api/v2/api-tokens/', { name: 'identity provider', scopes: ['scim:write'] });
    assert.equal(issued.status, 201, issued.text);
    scim = ScimClient.of(server, issued.body.token);
    const schemas = await scim.get('/Schemas');
    for (const schema of schemas.body.Resources) schemaOf.set(schema.id, schema.attributes);
  });

  const createUser = async (body: object) => {
    const created = await scim.post('/Users', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body;
  };

  /** The attributes of a resource other than the common ones (id, externalId, schemas, meta: RFC 7643 §3.1). */
  const ownAttributes = (resource: Record<string, unknown>, extensions: string[]) =>
    Object.fromEntries(Object.entries(resource).filter(([name]) => !['id', 'externalId', 'schemas', 'meta', ...extensions].includes(name)));

  it("answers only attributes its Schemas document declares: roles' primary, the manager's and members' $ref", async () => {
    const manager = await createUser(oktaUser(uniqueEmail('declared-manager')));
    const user = await createUser(
      oktaUser(uniqueEmail('declared'), {
        roles: [{ value: 'organizer' }],
        [ENTERPRISE]: { employeeNumber: '7', manager: { value: manager.id } },
      }),
    );
    assert.deepEqual(user.roles, [{ value: 'organizer', primary: true }]);
    assert.equal(user[ENTERPRISE].manager.$ref, manager.meta.location);
    assertDeclared(ownAttributes(user, [ENTERPRISE]), schemaOf.get(SCIM_USER)!, 'User');
    assertDeclared(user[ENTERPRISE], schemaOf.get(ENTERPRISE)!, 'EnterpriseUser');

    const group = await scim.post('/Groups', {
      schemas: [SCIM_GROUP],
      displayName: `Declared ${Date.now()}`,
      members: [{ value: user.id }],
    });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    assert.equal(group.body.members[0].$ref, user.meta.location);
    assertDeclared(ownAttributes(group.body, []), schemaOf.get(SCIM_GROUP)!, 'Group');

    const members = schemaOf.get(SCIM_GROUP)!.find((attribute) => attribute.name === 'members')!;
    const memberRef = members.subAttributes!.find((attribute) => attribute.name === '$ref')!;
    assert.deepEqual([memberRef.type, memberRef.referenceTypes], ['reference', ['User']]);
  });

  it('takes a member or a manager given by $ref alone, and refuses a member with neither value nor $ref', async () => {
    const member = await createUser(oktaUser(uniqueEmail('ref-member')));
    const group = await scim.post('/Groups', {
      schemas: [SCIM_GROUP],
      displayName: `By ref ${Date.now()}`,
      members: [{ $ref: member.meta.location, type: 'User' }],
    });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    assert.deepEqual(
      group.body.members.map((entry: { value: string }) => entry.value),
      [member.id],
    );
    const managed = await createUser(oktaUser(uniqueEmail('ref-managed'), { [ENTERPRISE]: { manager: { $ref: member.meta.location } } }));
    assert.equal(managed[ENTERPRISE].manager.value, member.id);

    const neither = await scim.post('/Groups', {
      schemas: [SCIM_GROUP],
      displayName: `Neither ${Date.now()}`,
      members: [{ type: 'User' }],
    });
    expectScimError(neither, 400, 'invalidValue');
  });

  it('applies a PATCH whose path is the enterprise extension: add and replace set its attributes, remove clears them', async () => {
    const manager = await createUser(oktaUser(uniqueEmail('extension-manager')));
    const user = await createUser(oktaUser(uniqueEmail('extension')));
    let patched = await scim.patch(
      `/Users/${user.id}`,
      patchOp({ op: 'add', path: ENTERPRISE, value: { employeeNumber: 'E-1', manager: { value: manager.id } } }),
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body[ENTERPRISE].employeeNumber, 'E-1');
    assert.equal(patched.body[ENTERPRISE].manager.value, manager.id);
    const api = await server.api.get(`/api/v2/users/${user.id}/`);
    assert.equal(api.body.employee_id, 'E-1');

    // replace keeps the attributes it does not name (RFC 7644 §3.5.2.3)
    patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'Replace', path: ENTERPRISE, value: { employeeNumber: 'E-2' } }));
    assert.equal(patched.body[ENTERPRISE].employeeNumber, 'E-2');
    assert.equal(patched.body[ENTERPRISE].manager.value, manager.id);

    // Okta's path-less replace carrying the extension by its URN
    patched = await scim.patch(
      `/Users/${user.id}`,
      patchOp({ op: 'replace', value: { displayName: 'Ada King', [ENTERPRISE]: { employeeNumber: 'E-3' } } }),
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.displayName, 'Ada King');
    assert.equal(patched.body[ENTERPRISE].employeeNumber, 'E-3');
    // a key naming one attribute inside the extension stays what it was
    patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'Add', value: { [`${ENTERPRISE}:employeeNumber`]: 'E-5' } }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body[ENTERPRISE].employeeNumber, 'E-5');

    patched = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'remove', path: ENTERPRISE }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body[ENTERPRISE], undefined, 'a removed extension is absent, not an empty object');
    assert.ok(!patched.body.schemas.includes(ENTERPRISE));
    const cleared = await server.api.get(`/api/v2/users/${user.id}/`);
    assert.equal(cleared.body.employee_id, null);

    const notAnObject = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'add', path: ENTERPRISE, value: 'E-4' }));
    expectScimError(notAnObject, 400, 'invalidValue');
  });

  it('lets an added primary email take over from the old primary (RFC 7644 §3.5.2), and still refuses two new primaries', async () => {
    const user = await createUser(oktaUser(uniqueEmail('primary-old')));
    const next = uniqueEmail('primary-new');
    const patched = await scim.patch(
      `/Users/${user.id}`,
      patchOp({ op: 'add', path: 'emails', value: [{ value: next, type: 'work', primary: true }] }),
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.userName, next);
    assert.deepEqual(patched.body.emails, [{ value: next, type: 'work', primary: true }]);

    const two = await scim.patch(
      `/Users/${user.id}`,
      patchOp({
        op: 'add',
        path: 'emails',
        value: [
          { value: uniqueEmail('a'), primary: 'True' },
          { value: uniqueEmail('b'), primary: true },
        ],
      }),
    );
    expectScimError(two, 400, 'invalidValue');
    assert.equal((await scim.get(`/Users/${user.id}`)).body.userName, next, 'the refused PATCH changed nothing');
  });

  it('answers a group without members with no members attribute, and one whose last member left likewise', async () => {
    const member = await createUser(oktaUser(uniqueEmail('last-member')));
    const empty = await scim.post('/Groups', { schemas: [SCIM_GROUP], displayName: `Empty ${Date.now()}`, members: [] });
    assert.equal(empty.status, 201, JSON.stringify(empty.body));
    assert.equal('members' in empty.body, false);
    const added = await scim.patch(`/Groups/${empty.body.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: member.id }] }));
    assert.equal(added.body.members.length, 1);
    const removed = await scim.patch(`/Groups/${empty.body.id}`, patchOp({ op: 'remove', path: `members[value eq "${member.id}"]` }));
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal('members' in removed.body, false);
    assert.equal('members' in (await scim.get(`/Groups/${empty.body.id}`)).body, false);
  });
});
