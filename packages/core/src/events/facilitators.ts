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
import { publicIdField, userRefSchema, type UserRef } from '../shared/schema.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export const facilitatorRoles = ['organizer', 'co_organizer', 'presenter'] as const;
export type FacilitatorRole = (typeof facilitatorRoles)[number];

export const MAX_FACILITATORS_PER_ROLE = 50;

export const facilitatorsSchema = z
  .object({
    organizer: userRefSchema.nullable(),
    co_organizers: z.array(userRefSchema),
    presenters: z.array(userRefSchema),
  })
  .register(apiSchemaNames, { id: 'Facilitators' });
export type Facilitators = z.infer<typeof facilitatorsSchema>;

// the service refuses a user named twice in one role
const idList = () => z.array(publicIdField()).max(MAX_FACILITATORS_PER_ROLE).meta({ uniqueItems: true });

/** The body of `PUT …/facilitators/`, and the `facilitators` field of a series write. */
export const facilitatorsInput = z
  .strictObject({
    organizer_id: publicIdField().nullable().optional(),
    co_organizer_ids: idList().optional(),
    presenter_ids: idList().optional(),
  })
  .register(apiSchemaNames, { id: 'FacilitatorsReplace' });
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
