/**
 * Locations (docs/events.md): where events happen and, through their IANA zone, how an event's
 * wall-clock timeslots become instants. The one resource the API names by an integer id.
 */
import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { nameField } from '../shared/schema.ts';
import { isValidTimeZone } from './wall-clock.ts';

export const locationSchema = z.object({
  id: listed(z.number().int(), { sort: true }),
  name: listed(z.string(), { sort: true, search: true }),
  timezone: listed(z.string(), { filter: true }),
});
export type Location = z.infer<typeof locationSchema>;

export const createLocationInput = z.strictObject({
  name: nameField(),
  timezone: z
    .string()
    .refine(isValidTimeZone, { error: 'Must be an IANA time zone name such as Europe/Berlin.' })
    // for the OpenAPI document: the canonical names; the check also takes aliases such as US/Eastern
    .meta({ enum: Intl.supportedValuesOf('timeZone') }),
});

/**
 * No PATCH or DELETE [the specification lists GET and POST only]: a location's zone fixes the
 * instants of every event held there, and keeping it immutable keeps those instants true.
 */
export const locationListSpec = listSpecOf(locationSchema, { defaultOrdering: ['id'] });
