/**
 * Locations (docs/events.md): where events happen and, through their IANA zone, how an event's
 * wall-clock timeslots become instants. The one resource the API names by an integer id.
 */
import { z } from 'zod';
import type { ListSpec } from '../shared/list-query.ts';
import { nameField } from '../shared/schema.ts';
import { isValidTimeZone } from './wall-clock.ts';

export const locationSchema = z.object({ id: z.number().int(), name: z.string(), timezone: z.string() });
export type Location = z.infer<typeof locationSchema>;

export const createLocationInput = z.strictObject({
  name: nameField(),
  timezone: z.string().refine(isValidTimeZone, { error: 'Must be an IANA time zone name such as Europe/Berlin.' }),
});

/**
 * No PATCH or DELETE [the specification lists GET and POST only]: a location's zone fixes the
 * instants of every event held there, and keeping it immutable keeps those instants true.
 */
export const locationListSpec = {
  filters: { timezone: { kind: 'string' } },
  search: true,
  ordering: ['id', 'name'],
  defaultOrdering: ['id'],
} as const satisfies ListSpec;
