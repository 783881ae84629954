import { calendarFeedSchema, etagOfJson, type Lectern } from '@lectern/core';
import { z } from 'zod';
import { created, document, noContent } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const CALENDAR = 'text/calendar; charset=utf-8';
const tag = 'Calendars';
const ics = z.string().meta({ description: 'An iCalendar document (RFC 5545)' });

/** An .ics document with its strong ETag: calendar apps poll, and a 304 spares them the body. */
const calendarReply = (ics: string, cacheControl: string) =>
  document(CALENDAR, ics, { ETag: etagOfJson(ics), 'Cache-Control': cacheControl });

/** Calendars (docs/notifications.md): an event's .ics, and the personal feed and its address. */
export function calendarRoutes(routes: RouteTable, lectern: Lectern): void {
  routes
    .get(
      '/api/v2/events/:id/calendar.ics',
      {
        summary: "The event's timeslots as an iCalendar document, one VEVENT each",
        tag,
        scope: 'events:read',
        response: { status: 200, schema: ics, mediaType: 'text/calendar', etag: true },
      },
      async (rc) => calendarReply(await lectern.calendars.eventCalendar(rc.ctx, rc.params.id), 'private, no-cache'),
    )
    .post(
      '/api/v2/me/calendar-feed',
      {
        summary: "A new address for the caller's personal calendar feed (shown once; the previous one stops working)",
        tag,
        scope: 'enrollments:read',
        response: { status: 201, schema: calendarFeedSchema },
      },
      async (rc) => created(await lectern.calendars.createFeed(rc.ctx)),
    )
    .delete(
      '/api/v2/me/calendar-feed',
      { summary: "Turn the caller's calendar feed off", tag, scope: 'enrollments:read', response: { status: 204 } },
      async (rc) => {
        await lectern.calendars.deleteFeed(rc.ctx);
        return noContent();
      },
    )
    // the key in the address is the credential: calendar apps cannot send an Authorization header
    .get(
      '/calendar/:key.ics',
      {
        summary: "A user's calendar feed: enrolled and waitlisted timeslots, open assignments' due dates (the key is the credential)",
        tag,
        scope: null,
        response: { status: 200, schema: ics, mediaType: 'text/calendar', etag: true },
      },
      async (rc) => calendarReply(await lectern.calendars.feed(rc.params.key), 'private, no-cache'),
    );
}
