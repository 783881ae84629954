/** The email queue and what filling it reads (docs/notifications.md). */
import type { Notification, NotificationKind, NotificationStatus, Recipient } from '../notifications/notification.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';

export interface NewNotificationRow {
  kind: NotificationKind;
  userId: number;
  subject: string;
  /** JSON of the NotificationPayload */
  payload: string;
  status: 'pending' | 'skipped';
  unsubscribeKey: string;
  createdAt: string;
  /** when a pending one is first due; null for a skipped one */
  nextAttemptAt: string | null;
}

/** A pending notification a worker has claimed, with what sending it needs. */
export interface ClaimedNotification {
  id: number;
  kind: NotificationKind;
  payload: string;
  unsubscribeKey: string;
  attempts: number;
}

/** What became of an attempt: sent, failed for good, or pending again with the next attempt's time. */
export interface NotificationOutcome {
  status: Exclude<NotificationStatus, 'skipped'>;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
  nextAttemptAt: string | null;
}

/** An assignment a reminder sweep has just marked, with what its message says. */
export interface ReminderAssignment {
  user_public_id: string;
  assignment_public_id: string;
  content_name: string;
  due_date: string;
}

/**
 * Where a sweep's batches have reached in the order it walks open assignments (due date, then
 * row): each batch starts after the last one's final row instead of reading again, from the
 * start, the rows the earlier batches marked.
 */
export interface ReminderPosition {
  due_date: string;
  id: number;
}

/**
 * Which open assignments one batch of a sweep marks: up to `limit` whose due date lies in
 * [from, to] (`from` null: any date before `to`), taken in (due date, row) order after `after`
 * (null: from the first); `now` is when they were marked.
 */
export interface ReminderBatch {
  kind: 'assignment_due' | 'assignment_overdue';
  from: string | null;
  to: string;
  now: string;
  limit: number;
  after: ReminderPosition | null;
}

/** One batch of a sweep: the assignments it marked and where the next batch starts. */
export interface MarkedReminders {
  assignments: ReminderAssignment[];
  /** null when the batch marked nothing */
  next: ReminderPosition | null;
}

export interface NotificationStore {
  insertMany(rows: readonly NewNotificationRow[]): Promise<void>;
  /** The users named, by public id, as messages address them. */
  recipients(publicIds: readonly string[]): Promise<Recipient[]>;
  /** The enrolled and waitlisted users of an event, with their status. */
  attendees(eventId: number): Promise<Array<Recipient & { status: 'enrolled' | 'waitlisted' }>>;
  /**
   * Takes up to `limit` pending notifications due at `now` for `owner` until `until` (their next
   * attempt moves there, so a process that dies leaves them due again); of two processes, each row
   * goes to one. Due ones of a user who has turned email off since they were queued become
   * `skipped` instead of claimed.
   */
  claim(owner: string, until: string, now: string, limit: number): Promise<ClaimedNotification[]>;
  /**
   * Records what became of claimed messages still leased to `owner`; messages with equal outcomes
   * (a batch's successes) are written by one statement.
   */
  finish(owner: string, outcomes: ReadonlyArray<{ id: number; outcome: NotificationOutcome }>): Promise<void>;
  /** Hands back at once what `owner` held when it stopped (a restart under the same instance id). */
  releaseLeases(owner: string, now: string): Promise<number>;
  list(query: ListQuery): Promise<Page<Notification>>;
  emailNotifications(userId: number): Promise<boolean>;
  setEmailNotifications(userId: number, on: boolean): Promise<void>;
  /** Turns email off for the user a message's key belongs to; false for an unknown key. */
  unsubscribe(key: string): Promise<boolean>;
  /**
   * Marks the batch's assignments once per assignment and `kind`, and answers the ones this call
   * marked: the marker's primary key lets two processes never both take one.
   */
  markReminders(batch: ReminderBatch): Promise<MarkedReminders>;
}
