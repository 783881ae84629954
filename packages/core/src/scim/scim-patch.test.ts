import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyScimPatch } from './scim-patch.ts';
import { SCIM_ENTERPRISE_USER, SCIM_PATCH_OP } from './scim-schemas.ts';

const patch = (...Operations: object[]) => ({ schemas: [SCIM_PATCH_OP], Operations });
/** a user whose representation omits the enterprise extension, as one without its values does */
const plainUser = () => ({ userName: 'ada@example.com', active: true });
const extensions = [SCIM_ENTERPRISE_USER];

describe('SCIM PATCH of an extension addressed by its URN', () => {
  it('replaces into an extension the representation does not carry yet, by path or by value key', () => {
    const byPath = applyScimPatch(
      plainUser(),
      patch({ op: 'replace', path: SCIM_ENTERPRISE_USER, value: { employeeNumber: '7' } }),
      extensions,
    );
    assert.deepEqual(byPath, { ...plainUser(), [SCIM_ENTERPRISE_USER]: { employeeNumber: '7' } });
    // Okta's path-less replace, the URN in another case
    const byKey = applyScimPatch(
      plainUser(),
      patch({ op: 'Replace', value: { [SCIM_ENTERPRISE_USER.toUpperCase()]: { employeeNumber: '8' }, active: false } }),
      extensions,
    );
    assert.deepEqual(byKey, { userName: 'ada@example.com', active: false, [SCIM_ENTERPRISE_USER]: { employeeNumber: '8' } });
  });

  it('merges into the extension a user carries, and empties it on remove', () => {
    const user = { ...plainUser(), [SCIM_ENTERPRISE_USER]: { employeeNumber: '7', manager: { value: 'u_1' } } };
    const merged = applyScimPatch(user, patch({ op: 'add', path: SCIM_ENTERPRISE_USER, value: { employeeNumber: '9' } }), extensions);
    assert.deepEqual(merged[SCIM_ENTERPRISE_USER], { employeeNumber: '9', manager: { value: 'u_1' } });
    const removed = applyScimPatch(user, patch({ op: 'remove', path: SCIM_ENTERPRISE_USER }), extensions);
    assert.deepEqual(removed[SCIM_ENTERPRISE_USER], {});
  });
});
