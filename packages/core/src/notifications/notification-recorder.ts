/**
 * Records email notifications in the transaction of the change that causes them, so a message is
 * owed exactly when the change commits (docs/notifications.md). Enrollment and assignment changes
 * are read off the webhook events the change records (one place sees every path: API, bulk jobs,
 * imports, promotion from the wait list); event changes are told by the events area, which alone
 * knows what the event was before.
 */
import { randomBytes } from 'node:crypto';
import type { LecternConfig } from '../config.ts';
import type { EventRecord } from '../events/event.ts';
import { everyItem } from '../ports/content-store.ts';
import type { NewNotificationRow } from '../ports/notification-store.ts';
import type { Stores } from '../ports/storage.ts';
import { nowIso, type Clock } from '../shared/clock.ts';
import type { WebhookEvent } from '../webhooks/webhook-event.ts';
import type { SlotStatus } from '../calendars/calendar-document.ts';
import { calendarSlot, slotSourcesOf } from '../calendars/calendar-slots.ts';
import { subjectOf } from './mail-templates.ts';
import type { EventPayload, NotificationPayload, Recipient } from './notification.ts';

const ENROLLMENT_KINDS: Record<string, EventPayload['kind']> = {
  'enrollment.enrolled': 'enrolled',
  'enrollment.waitlisted': 'waitlisted',
  'enrollment.dropped': 'dropped',
};

const SLOT_STATUS: Record<EventPayload['kind'], SlotStatus> = {
  enrolled: 'CONFIRMED',
  waitlisted: 'TENTATIVE',
  dropped: 'CANCELLED',
  event_changed: 'CONFIRMED',
  event_deleted: 'CANCELLED',
};

interface EnrollmentObject {
  user: { public_id: string };
  event: { public_id: string };
}
interface AssignmentObject {
  user: { public_id: string };
  content_item: { name: string; content_type: string };
  public_id: string;
  due_date: string | null;
}

export const newUnsubscribeKey = (): string => randomBytes(24).toString('base64url');

/** The time or the place: what makes a change worth an email (a renamed tag is not). */
function timeOrPlaceChanged(before: EventRecord, after: EventRecord): boolean {
  const where = (record: EventRecord) =>
    JSON.stringify([
      record.location?.id ?? null,
      record.timeslots.map((slot) => [slot.id, slot.starts_at_utc, slot.ends_at_utc, slot.rooms_info]),
    ]);
  return where(before) !== where(after);
}

export class NotificationRecorder {
  constructor(
    private readonly clock: Clock,
    private readonly config: Pick<LecternConfig, 'mail'>,
  ) {}

  /** Without an SMTP server nothing is queued: there is no one to send it. */
  get enabled(): boolean {
    return this.config.mail.smtpUrl !== null;
  }

  /** The notifications the webhook events of a change call for; the outbox hands them over in the change's transaction. */
  async recordFor(tx: Stores, events: readonly WebhookEvent[]): Promise<void> {
    if (!this.enabled) return;
    const wanted: Array<{ userPublicId: string; payload: (user: Recipient) => Promise<NotificationPayload> }> = [];
    const eventCache = new Map<string, Promise<EventRecord | undefined>>();
    const eventOf = (publicId: string) => {
      let found = eventCache.get(publicId);
      if (!found) eventCache.set(publicId, (found = tx.events.findByPublicId(publicId, 'event', everyItem)));
      return found;
    };
    for (const event of events) {
      const kind = ENROLLMENT_KINDS[event.type];
      if (kind) {
        const object = event.data.object as EnrollmentObject;
        wanted.push({
          userPublicId: object.user.public_id,
          payload: async (user) => {
            const record = await eventOf(object.event.public_id);
            return this.eventPayload(kind, user, record!);
          },
        });
      } else if (event.type === 'assignment.created') {
        const object = event.data.object as AssignmentObject;
        // an enrollment's own assignment: the enrollment's message says it all
        if (object.content_item.content_type === 'event') continue;
        wanted.push({
          userPublicId: object.user.public_id,
          payload: async (user) => ({
            kind: 'assignment_created',
            user: { name: user.name, email: user.email },
            assignment: { public_id: object.public_id, content_name: object.content_item.name, due_date: object.due_date },
          }),
        });
      }
    }
    if (wanted.length === 0) return;
    const recipients = new Map(
      (await tx.notifications.recipients([...new Set(wanted.map((w) => w.userPublicId))])).map((r) => [r.public_id, r]),
    );
    const rows: NewNotificationRow[] = [];
    for (const item of wanted) {
      const user = recipients.get(item.userPublicId);
      if (user) rows.push(this.row(user, await item.payload(user)));
    }
    await tx.notifications.insertMany(rows);
  }

  /** After an event PATCH: its enrolled and waitlisted users hear of a new time or place. */
  async eventChanged(tx: Stores, before: EventRecord, after: EventRecord): Promise<void> {
    if (!this.enabled || !timeOrPlaceChanged(before, after)) return;
    await this.toAttendees(tx, after, 'event_changed');
  }

  /** Before the delete is written: afterwards the event no longer reads. */
  async eventDeleted(tx: Stores, record: EventRecord): Promise<void> {
    if (!this.enabled) return;
    await this.toAttendees(tx, record, 'event_deleted');
  }

  /** Reminders a sweep has just marked. */
  async recordMany(tx: Stores, items: ReadonlyArray<{ user: Recipient; payload: NotificationPayload }>): Promise<void> {
    if (items.length > 0) await tx.notifications.insertMany(items.map(({ user, payload }) => this.row(user, payload)));
  }

  private async toAttendees(tx: Stores, record: EventRecord, kind: 'event_changed' | 'event_deleted'): Promise<void> {
    const attendees = await tx.notifications.attendees(record.id);
    const rows = attendees.map((user) => {
      const payload = this.eventPayload(kind, user, record);
      // a waitlisted user's entry stays tentative
      if (kind === 'event_changed' && user.status === 'waitlisted') for (const slot of payload.slots) slot.status = 'TENTATIVE';
      return this.row(user, payload);
    });
    if (rows.length > 0) await tx.notifications.insertMany(rows);
  }

  private eventPayload(kind: EventPayload['kind'], user: Recipient, record: EventRecord): EventPayload {
    return {
      kind,
      user: { name: user.name, email: user.email },
      event: { public_id: record.content.summary.public_id, name: record.content.summary.name },
      slots: slotSourcesOf(record).map((source) => calendarSlot(source, SLOT_STATUS[kind])),
    };
  }

  private row(user: Recipient, payload: NotificationPayload): NewNotificationRow {
    const now = nowIso(this.clock);
    return {
      kind: payload.kind,
      userId: user.id,
      subject: subjectOf(payload),
      payload: JSON.stringify(payload),
      status: user.email_notifications ? 'pending' : 'skipped',
      unsubscribeKey: newUnsubscribeKey(),
      createdAt: now,
      nextAttemptAt: user.email_notifications ? now : null,
    };
  }
}
