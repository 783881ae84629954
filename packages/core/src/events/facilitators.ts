/**
 * Facilitators of an event or series (docs/events.md): one organizer, co-organizers and presenters.
 *
 * Decisions where the specification is silent:
 * - `PUT …/facilitators/` replaces all three roles; a role left out of the body becomes empty.
 * - Any user may facilitate, whatever their role or whether they are active: a facilitator is a
 *   fact about the event, not a permission.
 * - A user may hold several roles (an organizer who also presents); within one list each user
 *   appears once (422 otherwise), and lists keep the order sent.
 */
import { z } from 'zod';
import type { Stores } from '../ports/storage.ts';
import { validationError } from '../shared/errors.ts';
import { publicIdField, userRefSchema, type UserRef } from '../shared/schema.ts';

export const facilitatorRoles = ['organizer', 'co_organizer', 'presenter'] as const;
export type FacilitatorRole = (typeof facilitatorRoles)[number];

export const MAX_FACILITATORS_PER_ROLE = 50;

export const facilitatorsSchema = z.object({
  organizer: userRefSchema.nullable(),
  co_organizers: z.array(userRefSchema),
  presenters: z.array(userRefSchema),
});
export type Facilitators = z.infer<typeof facilitatorsSchema>;

// the service refuses a user named twice in one role
const idList = () => z.array(publicIdField()).max(MAX_FACILITATORS_PER_ROLE).meta({ uniqueItems: true });

/** The body of `PUT …/facilitators/`, and the `facilitators` field of a series write. */
export const facilitatorsInput = z.strictObject({
  organizer_id: publicIdField().nullable().optional(),
  co_organizer_ids: idList().optional(),
  presenter_ids: idList().optional(),
});
export type FacilitatorsInput = z.output<typeof facilitatorsInput>;

/** One stored facilitator: the internal id (copied from a series to its events) and how it reads. */
export interface FacilitatorEntry {
  userId: number;
  role: FacilitatorRole;
  user: UserRef;
}

export function facilitatorsView(entries: readonly FacilitatorEntry[]): Facilitators {
  const of = (role: FacilitatorRole) => entries.filter((entry) => entry.role === role).map((entry) => entry.user);
  return { organizer: of('organizer')[0] ?? null, co_organizers: of('co_organizer'), presenters: of('presenter') };
}

const inputFields: ReadonlyArray<readonly [keyof FacilitatorsInput, FacilitatorRole]> = [
  ['organizer_id', 'organizer'],
  ['co_organizer_ids', 'co_organizer'],
  ['presenter_ids', 'presenter'],
];

/**
 * Turns a facilitators body into stored entries: every id must name a user (422 on the field
 * listing the unknown ones, reported for all fields at once). `prefix` names the enclosing field.
 */
export async function resolveFacilitators(
  tx: Stores,
  input: FacilitatorsInput,
  prefix = '',
): Promise<Array<{ userId: number; role: FacilitatorRole }>> {
  const lists = inputFields.map(([field, role]) => {
    const value = input[field];
    const ids = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    return { field: `${prefix}${field}`, role, ids };
  });
  const known = await tx.users.idsByPublicIds([...new Set(lists.flatMap((list) => list.ids))]);
  const errors: Record<string, string[]> = {};
  for (const { field, ids } of lists) {
    const unknown = ids.filter((id) => !known.has(id));
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (unknown.length > 0) (errors[field] ??= []).push(`No user has these public_ids: ${unknown.join(', ')}.`);
    if (repeated.length > 0) (errors[field] ??= []).push(`Each user may appear only once; repeated: ${[...new Set(repeated)].join(', ')}.`);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return lists.flatMap(({ role, ids }) => ids.map((id) => ({ userId: known.get(id)!, role })));
}
