import { etagOfJson, type Lectern } from '@lectern/core';
import { created, document, noContent } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const CALENDAR = 'text/calendar; charset=utf-8';

/** An .ics document with its strong ETag: calendar apps poll, and a 304 spares them the body. */
const calendarReply = (ics: string, cacheControl: string) =>
  document(CALENDAR, ics, { ETag: etagOfJson(ics), 'Cache-Control': cacheControl });

/** Calendars (docs/notifications.md): an event's .ics, and the personal feed and its address. */
export function calendarRoutes(routes: RouteTable, lectern: Lectern): void {
  routes
    .get('/api/v2/events/:id/calendar.ics', async (rc) =>
      calendarReply(await lectern.calendars.eventCalendar(rc.ctx, rc.params.id!), 'private, no-cache'),
    )
    .post('/api/v2/me/calendar-feed', async (rc) => created(await lectern.calendars.createFeed(rc.ctx)))
    .delete('/api/v2/me/calendar-feed', async (rc) => {
      await lectern.calendars.deleteFeed(rc.ctx);
      return noContent();
    })
    // the key in the address is the credential: calendar apps cannot send an Authorization header
    .publicGet('/calendar/:key.ics', async (rc) => calendarReply(await lectern.calendars.feed(rc.params.key!), 'private, no-cache'));
}
