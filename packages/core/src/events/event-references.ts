/** How other areas (enrollments) reach the events they name, inside their own transaction. */
import type { Actor } from '../auth/actor.ts';
import { viewerFor } from '../content/content-rules.ts';
import { everyItem } from '../ports/content-store.ts';
import type { EventSeats } from '../ports/event-store.ts';
import type { Stores } from '../ports/storage.ts';
import { fieldError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import type { EventRecord } from './event.ts';

/** The event `publicId` names, if `actor` may see it; 422 on `field` otherwise. */
export async function requireEventReference(stores: Stores, actor: Actor, publicId: string, field: string): Promise<EventRecord> {
  const event = await stores.events.findByPublicId(publicId, 'event', viewerFor(actor));
  if (!event) throw fieldError(field, 'No event has this public_id.');
  return event;
}

/** An event by internal id whoever may see it (the waitlist fills seats of hidden events too); undefined once deleted. */
export const findEventAnyVisibility = (stores: Stores, id: number): Promise<EventRecord | undefined> =>
  stores.events.findById(id, everyItem);

/** The seats of the events of `publicIds` that `actor` may see, by public id, in two queries for all; the others are absent. */
export async function findEventSeats(stores: Stores, actor: Actor, publicIds: readonly string[]): Promise<Map<string, EventSeats>> {
  const events = await stores.events.seatsByPublicIds(publicIds.filter(isUuid), 'event', viewerFor(actor));
  return new Map(events.map((event) => [event.publicId, event]));
}
