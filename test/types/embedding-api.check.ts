/**
 * Compile-time checks of the embedding API, type-checked by `npm run typecheck` and never run.
 * Each `@ts-expect-error` fails the type-check if the line below it starts compiling, so inputs
 * typed back to `unknown` (or looser) break the build.
 */
import type { Lectern, RequestContext } from '@lectern/core';

export async function embeddingApiIsTyped(lectern: Lectern, app: RequestContext): Promise<void> {
  const ada = await lectern.users.create(app, { email: 'ada@example.com', name: 'Ada', role: 'organizer' });

  // @ts-expect-error a misspelt field is not accepted
  await lectern.users.create(app, { emial: 'ada@example.com', name: 'Ada' });
  // @ts-expect-error a field of the wrong type is not accepted
  await lectern.users.create(app, { email: 'ada@example.com', name: 42 });
  // @ts-expect-error an unknown role is not accepted
  await lectern.users.create(app, { email: 'ada@example.com', name: 'Ada', role: 'owner' });
  // @ts-expect-error PATCH bodies are typed too
  await lectern.groups.update(app, ada.public_id, { nmae: 'Pioneers' });

  // content inputs are typed per content type
  const course = await lectern.content.create(app, 'course', { name: 'Analytical engines', tags: ['history'] });
  await lectern.content.create(app, 'link', { name: 'Notes', url: 'https://example.com/notes' });
  // @ts-expect-error a field of the wrong type is not accepted
  await lectern.content.create(app, 'article', { name: 42 });
  // @ts-expect-error the field is `name`
  await lectern.content.create(app, 'course', { title: 'Analytical engines' });
  // @ts-expect-error an article has no url
  await lectern.content.create(app, 'article', { name: 'Notes', url: 'https://example.com/notes' });
  // @ts-expect-error a link needs its url
  await lectern.content.create(app, 'link', { name: 'Notes' });
  await lectern.content.updateOfType(app, 'track', course.public_id, { items: [course.public_id] });
  // @ts-expect-error a video has no items
  await lectern.content.updateOfType(app, 'video', course.public_id, { items: [course.public_id] });
  // @ts-expect-error PATCH /content-items/<id>/ takes the shared fields only
  await lectern.content.update(app, course.public_id, { url: 'https://example.com/notes' });

  // events and series: PATCH bodies and bulk wrappers are typed from their schemas too
  // @ts-expect-error a misspelt field is not accepted
  await lectern.scheduledEvents.update(app, course.public_id, { nmae: 'Kick-off' });
  await lectern.eventSeries.bulk.submit(app, { event_series: [{ public_id: course.public_id, name: 'Kick-offs' }] });
  // @ts-expect-error the events' wrapper key is `events`
  await lectern.scheduledEvents.bulk.submit(app, { event_series: [{ public_id: course.public_id, name: 'Kick-off' }] });

  // acting as a user: by public id or by the user record, never by an internal id
  const asAda: RequestContext = await lectern.contextFor(ada);
  await lectern.content.list(await lectern.contextFor(ada.public_id), {});
  // @ts-expect-error internal numeric ids are not part of the API
  await lectern.contextFor(1);
  void asAda;

  // create-or-get answers `{ <resource>, created }`; a plain create answers the resource itself
  const { assignment, created } = await lectern.assignments.create(app, { user_id: ada.public_id, content_item_id: course.public_id });
  const isNew: boolean = created;
  void isNew;

  // actions without a body take no argument
  await lectern.assignments.act(app, assignment.public_id, 'complete');
  // @ts-expect-error a bodiless action refuses stray fields
  await lectern.assignments.act(app, assignment.public_id, 'complete', { note: 'early' });

  // bulk submissions are wrapped in their key, each item typed like a single create
  // @ts-expect-error the wrapper key is checked
  await lectern.users.bulk.submit(app, { user: [{ email: 'b@example.com', name: 'B' }] });
  await lectern.users.bulk.submit(app, { users: [{ email: 'b@example.com', name: 'B' }] });
}
