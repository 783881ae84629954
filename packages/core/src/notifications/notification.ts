/**
 * Email notifications (docs/notifications.md): what each message is about, as recorded in the
 * transaction of the change that causes it and as `GET /notifications/` lists it.
 */
import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { userRefSchema } from '../shared/schema.ts';
import type { CalendarSlot } from '../calendars/calendar-document.ts';

export const notificationKinds = [
  'enrolled',
  'waitlisted',
  'dropped',
  'event_changed',
  'event_deleted',
  'assignment_created',
  'assignment_due',
  'assignment_overdue',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationStatuses = ['pending', 'sent', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof notificationStatuses)[number];

export const notificationSchema = z.object({
  id: listed(z.number().int(), { sort: true }),
  kind: listed(z.enum(notificationKinds), { filter: true }),
  user: listed(userRefSchema, { filter: true }),
  subject: z.string(),
  status: listed(z.enum(notificationStatuses), { filter: true }),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: listed(z.string(), { range: 'datetime' }),
  sent_at: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** Newest first: the id grows with time and is unique. */
export const notificationListSpec = listSpecOf(notificationSchema, { defaultOrdering: ['-id'] });

export interface Recipient {
  id: number;
  public_id: string;
  name: string;
  email: string;
  email_notifications: boolean;
}

/** What a message about an event says: its name and, as calendar entries, its timeslots. */
export interface EventPayload {
  kind: 'enrolled' | 'waitlisted' | 'dropped' | 'event_changed' | 'event_deleted';
  user: { name: string; email: string };
  event: { public_id: string; name: string };
  slots: CalendarSlot[];
}

export interface AssignmentPayload {
  kind: 'assignment_created' | 'assignment_due' | 'assignment_overdue';
  user: { name: string; email: string };
  assignment: { public_id: string; content_name: string; due_date: string | null };
}

/** Everything a message is rendered from, kept with the notification so sending reads nothing else. */
export type NotificationPayload = EventPayload | AssignmentPayload;
