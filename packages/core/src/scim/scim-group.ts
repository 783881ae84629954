/** A Lectern group as a SCIM Group (RFC 7643 §4.2), and back. Pure: the service reads and writes. */
import { z } from 'zod';
import type { Group } from '../groups/group.ts';
import { etagOf } from '../shared/etag.ts';
import { invalidValue } from './scim-error.ts';
import { SCIM_GROUP } from './scim-schemas.ts';
import { idFromRef } from './scim-user.ts';

const groupBody = z.looseObject({
  displayName: z.string().trim().min(1).max(255),
  externalId: z.string().nullable().optional(),
  members: z
    .array(z.looseObject({ value: z.string().optional(), $ref: z.string().optional(), type: z.string().optional() }))
    .nullable()
    .optional(),
});

export interface ScimGroupWrite {
  name: string;
  externalId: string | null;
  /** user public ids, each once */
  members: string[];
}

export function readScimGroup(body: unknown): ScimGroupWrite {
  const parsed = groupBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidValue(`'${issue.path.join('.') || 'body'}': ${issue.message}`);
  }
  const group = parsed.data;
  const others = (group.members ?? []).filter((member) => member.type !== undefined && member.type !== 'User');
  if (others.length > 0) throw invalidValue("'members': only users can be members of a group (type 'User').");
  const members = (group.members ?? []).map((member) => member.value ?? idFromRef(member.$ref));
  const ids = members.filter((id) => id !== undefined);
  if (ids.length !== members.length) throw invalidValue("'members': each member needs a value (the user's id) or a $ref.");
  return {
    name: group.displayName,
    externalId: group.externalId ?? null,
    members: [...new Set(ids)],
  };
}

/** What a group's SCIM version (its ETag) is the tag of: If-Match compares with the same. */
export const groupVersionBasis = (group: Group, externalId: string | null) => ({ group, externalId });

/** `members` null leaves them out (`excludedAttributes=members`), as does an empty list; the version never depends on them: a change of members changes `modified`. */
export function toScimGroup(group: Group, externalId: string | null, members: readonly string[] | null, base: string) {
  return {
    schemas: [SCIM_GROUP],
    id: group.public_id,
    ...(externalId !== null ? { externalId } : {}),
    displayName: group.name,
    // RFC 7643 §2.5: no members and an empty list are the same state; clients expect the attribute absent
    ...(members && members.length > 0
      ? { members: members.map((value) => ({ value, type: 'User', $ref: `${base}/Users/${value}` })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: group.created,
      lastModified: group.modified,
      location: `${base}/Groups/${group.public_id}`,
      version: etagOf(groupVersionBasis(group, externalId)),
    },
  };
}
