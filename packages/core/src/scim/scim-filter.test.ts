import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScimError } from './scim-error.ts';
import { scimFilterToRql } from './scim-filter.ts';
import { scimGroupAttributes } from './scim-groups.ts';
import { scimUserAttributes } from './scim-users.ts';

const users = (filter: string) => scimFilterToRql(filter, scimUserAttributes);

describe('SCIM filters as RQL', () => {
  it('compares userName by its indexed folded copy, externalId exactly', () => {
    assert.deepEqual(users('UserName eq "Ada@Example.com"'), {
      kind: 'field',
      field: 'email_lower',
      test: { op: 'eq', value: 'ada@example.com' },
    });
    assert.deepEqual(users('externalId eq "A1"'), { kind: 'field', field: 'external_id', test: { op: 'eq', value: 'A1' } });
  });

  it('turns co, sw and ew into patterns, ignoring case where the attribute does', () => {
    assert.deepEqual(users('userName co "x"'), {
      kind: 'field',
      field: 'email',
      test: { op: 'like', pattern: { segments: ['', 'x', ''] }, caseInsensitive: true },
    });
    assert.deepEqual(users('externalId sw "x"'), {
      kind: 'field',
      field: 'external_id',
      test: { op: 'like', pattern: { segments: ['x', ''] }, caseInsensitive: false },
    });
  });

  it('keeps and, or, not and parentheses; ne is not(eq); pr is not null', () => {
    assert.deepEqual(users('not (active eq "False") and (externalId pr or externalId ne "b")'), {
      kind: 'and',
      children: [
        { kind: 'not', child: { kind: 'field', field: 'is_active', test: { op: 'eq', value: false } } },
        {
          kind: 'or',
          children: [
            { kind: 'not', child: { kind: 'field', field: 'external_id', test: { op: 'null' } } },
            { kind: 'not', child: { kind: 'field', field: 'external_id', test: { op: 'eq', value: 'b' } } },
          ],
        },
      ],
    });
  });

  it('tests a group member as some element of the list', () => {
    const expected = { kind: 'some', field: 'members.public_id', test: { op: 'eq', value: 'u1' } };
    assert.deepEqual(scimFilterToRql('members.value eq "u1"', scimGroupAttributes), expected);
    assert.deepEqual(scimFilterToRql('members[value eq "u1"]', scimGroupAttributes), expected);
  });

  it('refuses unknown attributes, wrong types and bad syntax as invalidFilter', () => {
    for (const filter of [
      'title eq "x"',
      'active co "t"',
      'active eq 3',
      'meta.created gt "later"',
      'userName eq',
      'userName xx "a"',
      '',
    ]) {
      assert.throws(
        () => users(filter === '' ? '(' : filter),
        (error) => error instanceof ScimError && error.scimType === 'invalidFilter',
        filter,
      );
    }
  });
});
