/**
 * Locations (docs/events.md): where events happen and, through their IANA zone, how an event's
 * wall-clock timeslots become instants. The one resource the API names by an integer id.
 */
import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { nameField } from '../shared/schema.ts';
import { isValidTimeZone } from './wall-clock.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export const locationSchema = z
  .object({
    id: listed(z.number().int(), { sort: true }),
    name: listed(z.string(), { sort: true, search: true }),
    timezone: listed(z.string(), { filter: true }),
  })
  .register(apiSchemaNames, { id: 'Location' });
export type Location = z.infer<typeof locationSchema>;

const timezoneField = () =>
  z
    .string()
    .refine(isValidTimeZone, { error: 'Must be an IANA time zone name such as Europe/Berlin.' })
    // for the OpenAPI document: the canonical names; the check also takes aliases such as US/Eastern
    .meta({ enum: Intl.supportedValuesOf('timeZone') });

export const createLocationInput = z
  .strictObject({
    name: nameField(),
    timezone: timezoneField(),
  })
  .register(apiSchemaNames, { id: 'LocationCreate' });

/**
 * A location's name may always change. Its time zone may change only while no event or series is
 * held there: an event's wall-clock times are read in its location's zone, and the instants
 * stored from them (calendars, reminders, `starts_at_utc`) would silently become wrong.
 */
export const updateLocationInput = z
  .strictObject({
    name: nameField().optional(),
    timezone: timezoneField().optional(),
  })
  .register(apiSchemaNames, { id: 'LocationUpdate' });

/** No DELETE: events keep pointing at their location, and a location is cheap to keep. */
export const locationListSpec = listSpecOf(locationSchema, { defaultOrdering: ['id'] });
