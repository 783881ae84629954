/**
 * Calendars (docs/notifications.md): one event's timeslots as an iCalendar document, and a personal
 * feed calendar apps poll with a secret key in the URL, since they cannot send headers.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { EventItems } from '../events/event-items.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { sha256 } from '../shared/sha256.ts';
import { calendarDocument } from './calendar-document.ts';
import { calendarDue, calendarSlot, slotSourcesOf } from './calendar-slots.ts';

/** `POST /me/calendar-feed/`: the feed's address, shown once (only its key's hash is kept). */
export const calendarFeedSchema = z.object({ url: z.string(), created_at: z.string() });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** A feed key: 32 random bytes, base64url (43 characters). */
const FEED_KEY = /^[A-Za-z0-9_-]{43}$/;

export const feedUrl = (publicUrl: string, key: string): string => `${publicUrl.replace(/\/+$/, '')}/calendar/${key}.ics`;

export class CalendarService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly events: EventItems,
  ) {}

  /** `GET /events/<id>/calendar.ics`: seen by whoever may see the event. */
  async eventCalendar(ctx: RequestContext, publicId: string): Promise<string> {
    authorize(ctx.actor, 'events:read');
    const record = await this.events.require(this.deps.storage, ctx.actor, publicId, 'event');
    return calendarDocument({
      name: record.content.summary.name,
      slots: slotSourcesOf(record).map((source) => calendarSlot(source, 'CONFIRMED')),
    });
  }

  /** A new key for the caller's feed; the previous one stops working. Reveals enrollments, hence the scope. */
  async createFeed(ctx: RequestContext): Promise<CalendarFeed> {
    authorize(ctx.actor, 'enrollments:read');
    const userId = this.userIdOf(ctx);
    const key = randomBytes(32).toString('base64url');
    const created = nowIso(this.deps.clock);
    await this.deps.storage.transaction(async (tx) => {
      await tx.calendars.replaceFeed(userId, sha256(key, 'hex'), created);
      await this.deps.audit.record(tx, ctx, 'calendar_feed.created', ctx.actor.kind === 'user' ? ctx.actor.publicId : '');
    });
    return { url: feedUrl(this.deps.config.publicUrl, key), created_at: created };
  }

  async deleteFeed(ctx: RequestContext): Promise<void> {
    authorize(ctx.actor, 'enrollments:read');
    const userId = this.userIdOf(ctx);
    await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.calendars.deleteFeed(userId))) throw notFound('Calendar feed');
      await this.deps.audit.record(tx, ctx, 'calendar_feed.deleted', ctx.actor.kind === 'user' ? ctx.actor.publicId : '');
    });
  }

  /**
   * `GET /calendar/<key>.ics`: the key is the only credential. Unknown, malformed or belonging to a
   * deactivated user: 404 alike, so the answer tells a guesser nothing.
   */
  async feed(key: string): Promise<string> {
    const owner = FEED_KEY.test(key) ? await this.deps.storage.calendars.feedOwner(sha256(key, 'hex')) : undefined;
    if (!owner || !owner.isActive) throw notFound('Calendar feed');
    const slots = await this.deps.storage.calendars.feedSlots(owner.userId);
    const dues = await this.deps.storage.calendars.feedDues(owner.userId);
    return calendarDocument({
      name: `Lectern: ${owner.name}`,
      slots: slots.map((slot) => calendarSlot(slot, slot.status === 'enrolled' ? 'CONFIRMED' : 'TENTATIVE')),
      dues: dues.map(calendarDue),
    });
  }

  private userIdOf(ctx: RequestContext): number {
    if (ctx.actor.kind !== 'user') throw badRequest('The application itself (the system actor) is not a user.');
    return ctx.actor.userId;
  }
}
