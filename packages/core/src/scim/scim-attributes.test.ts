import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributePath, attributeSelection, project, returns } from './scim-attributes.ts';
import { SCIM_ENTERPRISE_USER, SCIM_USER } from './scim-schemas.ts';

const user = {
  schemas: [SCIM_USER, SCIM_ENTERPRISE_USER],
  id: 'u1',
  userName: 'ada@example.com',
  name: { formatted: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' },
  emails: [
    { value: 'ada@example.com', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
  [SCIM_ENTERPRISE_USER]: { employeeNumber: '7', manager: { value: 'm1', displayName: 'Charles' } },
  meta: { resourceType: 'User', version: 'W/"1"' },
};

describe('SCIM attributes and excludedAttributes', () => {
  it('reads paths in any case, with or without the schema URN', () => {
    assert.deepEqual(attributePath(`${SCIM_USER}:Name.GivenName`), ['name', 'givenname']);
    assert.deepEqual(attributePath(`${SCIM_ENTERPRISE_USER}:manager.value`), [SCIM_ENTERPRISE_USER.toLowerCase(), 'manager', 'value']);
    assert.deepEqual(attributePath(SCIM_ENTERPRISE_USER), [SCIM_ENTERPRISE_USER.toLowerCase()]);
  });

  it('keeps only what is asked, plus id, schemas and meta; sub-attributes of every value of a list', () => {
    const projected = project(
      user,
      attributeSelection(['emails.value,name.familyName', `${SCIM_ENTERPRISE_USER}:manager.value`], undefined),
    );
    assert.deepEqual(projected, {
      schemas: user.schemas,
      id: 'u1',
      meta: user.meta,
      emails: [{ value: 'ada@example.com' }, { value: 'ada@home.example' }],
      name: { familyName: 'Lovelace' },
      [SCIM_ENTERPRISE_USER]: { manager: { value: 'm1' } },
    });
    assert.equal(user.emails[0]!.type, 'work', 'the resource itself is left as it was');
  });

  it('drops what is excluded but never id, schemas or meta; attributes wins over excludedAttributes', () => {
    const projected = project(user, attributeSelection(undefined, ['emails.type,id,meta,schemas,userName,nothing.here']));
    assert.deepEqual(Object.keys(projected).sort(), ['emails', 'id', 'meta', 'name', 'schemas', SCIM_ENTERPRISE_USER].sort());
    assert.deepEqual(projected.emails, [{ value: 'ada@example.com', primary: true }, { value: 'ada@home.example' }]);
    assert.deepEqual(attributeSelection(['userName'], ['userName']), { include: [['username']], exclude: [] });
  });

  it('says whether a top-level attribute is returned, so a read can skip loading it', () => {
    assert.equal(returns(attributeSelection(undefined, undefined), 'members'), true);
    assert.equal(returns(attributeSelection(undefined, ['Members']), 'members'), false);
    assert.equal(returns(attributeSelection(['displayName'], undefined), 'members'), false);
    assert.equal(returns(attributeSelection(['members.value'], undefined), 'members'), true);
  });
});
