/**
 * A Lectern user as a SCIM User (RFC 7643 §4.1 and the enterprise extension, §4.3), and back: the
 * mapping docs/identity.md describes. Pure: the service reads and writes.
 */
import { z } from 'zod';
import { roles, type Role } from '../auth/scopes.ts';
import { etagOf } from '../shared/etag.ts';
import { foldCase } from '../shared/fold-case.ts';
import type { User } from '../users/user.ts';
import { invalidValue } from './scim-error.ts';
import { SCIM_ENTERPRISE_USER, SCIM_USER } from './scim-schemas.ts';

/** Identity providers send booleans as JSON booleans or as the strings "True" and "False". */
export const scimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i)
    .transform((text) => text.toLowerCase() === 'true'),
]);

const multiValue = z.union([
  z.string().transform((value) => ({ value, type: undefined, primary: undefined })),
  z.looseObject({ value: z.unknown().optional(), type: z.string().optional(), primary: scimBoolean.optional() }),
]);

const text = () => z.string().nullable().optional();

const userBody = z.looseObject({
  userName: z.string(),
  externalId: text(),
  name: z.looseObject({ formatted: text(), givenName: text(), familyName: text() }).nullable().optional(),
  displayName: text(),
  emails: z.array(multiValue).nullable().optional(),
  active: scimBoolean.optional(),
  roles: z.array(multiValue).nullable().optional(),
  [SCIM_ENTERPRISE_USER]: z
    .looseObject({
      employeeNumber: text(),
      // Entra sets the manager by its id alone
      manager: z.union([z.looseObject({ value: text(), $ref: text() }), z.string(), z.null()]).optional(),
    })
    .nullable()
    .optional(),
});

/** What a SCIM write asks of the user, in Lectern's terms. */
export interface ScimUserWrite {
  email: string;
  name: string;
  externalId: string | null;
  /** absent: the role stays as it is (a new user is a `user`) */
  role?: Role;
  /** absent: stays as it is (a new user is active) */
  active?: boolean;
  employeeId: string | null;
  managerId: string | null;
}

export interface ScimUserState {
  externalId: string | null;
  modified: string;
}

/** Reads a POST or PUT body, or a PATCH's result; `current` is the representation the PATCH started from. */
export function readScimUser(body: unknown, current?: ScimUserShape): ScimUserWrite {
  const parsed = userBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidValue(`'${issue.path.join('.') || 'body'}': ${issue.message}`);
  }
  const user = parsed.data;
  const enterprise = user[SCIM_ENTERPRISE_USER];
  const manager = enterprise?.manager;
  const managerId = typeof manager === 'string' ? manager : (manager?.value ?? idFromRef(manager?.$ref) ?? null);
  if ((user.emails ?? []).filter((email) => email.primary === true).length > 1) {
    throw invalidValue("'emails': at most one email may be primary.");
  }
  const role = user.roles?.[0]?.value;
  if (role !== undefined && !(roles as readonly unknown[]).includes(role)) {
    throw invalidValue(`'roles': the first role's value must be one of ${roles.join(', ')}.`);
  }
  return {
    email: emailOf(user.userName, user.emails ?? [], current),
    name: nameOf(user, current),
    externalId: user.externalId ?? null,
    ...(role !== undefined ? { role: role as Role } : {}),
    ...(user.active !== undefined ? { active: user.active } : {}),
    employeeId: blankToNull(enterprise?.employeeNumber),
    managerId: blankToNull(managerId),
  };
}

/** A reference's id: the last segment of a `$ref` such as `…/scim/v2/Users/<id>`, for a client that sends no `value`. */
export function idFromRef(ref: string | null | undefined): string | undefined {
  const id = ref?.split('/').at(-1);
  return id ? id : undefined;
}

const blankToNull = (value: string | null | undefined) => (value === undefined || value === null || value.trim() === '' ? null : value);

/**
 * Lectern keeps one name. Read: `name.formatted` wins, else `givenName familyName`, else
 * `displayName`, else the userName. On a PATCH (`current` given) the part that changed wins, so
 * replacing `name.givenName` alone renames the user.
 */
function nameOf(user: z.output<typeof userBody>, current?: ScimUserShape): string {
  const formatted = user.name?.formatted?.trim();
  const joined = [user.name?.givenName, user.name?.familyName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const display = user.displayName?.trim();
  if (current) {
    const before = current.name;
    const partsChanged = joined !== '' && joined !== [before.givenName, before.familyName].filter(Boolean).join(' ');
    if (formatted && formatted !== before.formatted) return formatted;
    if (partsChanged) return joined;
    if (display && display !== current.displayName) return display;
  }
  return formatted || joined || display || user.userName;
}

/**
 * The one name as SCIM's parts: the last word is the family name, the words before it the given
 * name (a one-word name is a given name only). `givenName familyName` always gives the name back.
 */
export function nameParts(name: string): { givenName?: string; familyName?: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { givenName: words[0]! };
  return { givenName: words.slice(0, -1).join(' '), familyName: words.at(-1)! };
}

type EmailEntry = { value?: unknown; type?: string | undefined; primary?: boolean | undefined };

/**
 * The user's one email is its userName. A PATCH that changes the primary (or work) email and leaves
 * userName alone changes both, so the two never disagree.
 */
function emailOf(userName: string, emails: readonly EmailEntry[], current?: ScimUserShape): string {
  if (!current || foldCase(userName) !== foldCase(current.userName)) return userName;
  const chosen = emails.find((email) => email.primary === true) ?? emails.find((email) => email.type === 'work') ?? emails[0];
  return typeof chosen?.value === 'string' && chosen.value !== current.userName ? chosen.value : userName;
}

export type ScimUserShape = ReturnType<typeof toScimUser>;

/** What a user's SCIM version (its ETag) is the tag of: If-Match compares with the same. */
export const userVersionBasis = (user: User, state: ScimUserState) => ({ user, externalId: state.externalId, modified: state.modified });

export function toScimUser(user: User, state: ScimUserState, base: string) {
  const version = etagOf(userVersionBasis(user, state));
  const enterprise = {
    ...(user.employee_id !== null ? { employeeNumber: user.employee_id } : {}),
    ...(user.manager
      ? { manager: { value: user.manager.public_id, $ref: `${base}/Users/${user.manager.public_id}`, displayName: user.manager.name } }
      : {}),
  };
  // an extension with no value is absent, as a removed one must be (RFC 7644 §3.5.2.2)
  const extended = Object.keys(enterprise).length > 0;
  return {
    schemas: extended ? [SCIM_USER, SCIM_ENTERPRISE_USER] : [SCIM_USER],
    id: user.public_id,
    ...(state.externalId !== null ? { externalId: state.externalId } : {}),
    userName: user.email,
    name: { formatted: user.name, ...nameParts(user.name) },
    displayName: user.name,
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: user.is_active,
    roles: [{ value: user.role, primary: true }],
    ...(extended ? { [SCIM_ENTERPRISE_USER]: enterprise } : {}),
    meta: {
      resourceType: 'User',
      created: user.date_joined,
      lastModified: state.modified,
      location: `${base}/Users/${user.public_id}`,
      version,
    },
  };
}
