import { sql, type Kysely } from 'kysely';
import {
  notificationListSpec,
  notificationSchema,
  outstandingStates,
  type ListQuery,
  type Notification,
  type Page,
  type Recipient,
} from '@lectern/core';
import type {
  ClaimedNotification,
  NewNotificationRow,
  NotificationOutcome,
  MarkedReminders,
  NotificationStore,
  ReminderBatch,
} from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { toBool } from '../listing/list-builder.ts';
import { appendRows } from '../shared/insert-row.ts';
import { defineResource, referenceTo } from '../listing/resource-definition.ts';

/** Notifications as `GET /notifications/` lists them: the recipient is the user `u`. */
const notificationResource = defineResource<Notification, { id: number }, { n: 'notifications' }, { u: 'users' }>(
  notificationSchema,
  notificationListSpec,
  {
    table: 'notifications',
    alias: 'n',
    internal: { id: 'n.id' },
    references: { user: referenceTo('users', 'u', 'n.user_id', 'inner') },
    tiebreak: 'n.id',
  },
);

const recipientOf = (row: { id: number; public_id: string; name: string; email: string; email_notifications: number }): Recipient => ({
  id: row.id,
  public_id: row.public_id,
  name: row.name,
  email: row.email,
  email_notifications: toBool(row.email_notifications),
});

export class NotificationRepository implements NotificationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(rows: readonly NewNotificationRow[]): Promise<void> {
    await appendRows(
      this.db,
      'notifications',
      rows.map((row) => ({
        kind: row.kind,
        user_id: row.userId,
        subject: row.subject,
        payload: row.payload,
        status: row.status,
        attempts: 0,
        last_error: null,
        next_attempt_at: row.nextAttemptAt,
        lease_owner: null,
        unsubscribe_key: row.unsubscribeKey,
        created_at: row.createdAt,
        sent_at: null,
      })),
    );
  }

  async recipients(publicIds: readonly string[]): Promise<Recipient[]> {
    if (publicIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'public_id', 'name', 'email', 'email_notifications'])
      .where('public_id', 'in', [...publicIds])
      .execute();
    return rows.map(recipientOf);
  }

  async attendees(eventId: number): Promise<Array<Recipient & { status: 'enrolled' | 'waitlisted' }>> {
    const rows = await this.db
      .selectFrom('enrollments as en')
      .innerJoin('users as u', 'u.id', 'en.user_id')
      .select(['u.id', 'u.public_id', 'u.name', 'u.email', 'u.email_notifications', 'en.status'])
      .where('en.event_id', '=', eventId)
      .where('en.status', 'in', ['enrolled', 'waitlisted'])
      .orderBy('en.id')
      .execute();
    return rows.map((row) => ({ ...recipientOf(row), status: row.status as 'enrolled' | 'waitlisted' }));
  }

  async claim(owner: string, until: string, now: string, limit: number): Promise<ClaimedNotification[]> {
    const due = await this.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['n.id', 'u.email_notifications'])
      .where('n.status', '=', 'pending')
      .where('n.next_attempt_at', '<=', now)
      .orderBy('n.next_attempt_at')
      .orderBy('n.id')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    // still due is the condition: a competing claim committed first has moved next_attempt_at on
    const stillDue = (ids: number[]) =>
      this.db.updateTable('notifications').where('id', 'in', ids).where('status', '=', 'pending').where('next_attempt_at', '<=', now);
    // the user's switch as it is now decides, not as it was when the message was queued
    const optedOut = due.filter((row) => !toBool(row.email_notifications)).map((row) => row.id);
    if (optedOut.length > 0) await stillDue(optedOut).set({ status: 'skipped', next_attempt_at: null, lease_owner: null }).execute();
    const wanted = due.filter((row) => toBool(row.email_notifications)).map((row) => row.id);
    if (wanted.length === 0) return this.claim(owner, until, now, limit);
    const rows = await stillDue(wanted)
      .set({ lease_owner: owner, next_attempt_at: until })
      .returning(['id', 'kind', 'payload', 'unsubscribe_key', 'attempts'])
      .execute();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind as ClaimedNotification['kind'],
      payload: row.payload,
      unsubscribeKey: row.unsubscribe_key,
      attempts: row.attempts,
    }));
  }

  async finish(owner: string, outcomes: ReadonlyArray<{ id: number; outcome: NotificationOutcome }>): Promise<void> {
    const groups = new Map<string, { outcome: NotificationOutcome; ids: number[] }>();
    for (const { id, outcome } of outcomes) {
      const key = JSON.stringify([outcome.status, outcome.attempts, outcome.lastError, outcome.sentAt, outcome.nextAttemptAt]);
      const group = groups.get(key);
      if (group) group.ids.push(id);
      else groups.set(key, { outcome, ids: [id] });
    }
    for (const { outcome, ids } of groups.values()) {
      await this.db
        .updateTable('notifications')
        .set({
          status: outcome.status,
          attempts: outcome.attempts,
          last_error: outcome.lastError,
          sent_at: outcome.sentAt,
          next_attempt_at: outcome.nextAttemptAt,
          lease_owner: null,
        })
        .where('id', 'in', ids)
        // a lease that ran out and was taken by another process: that process decides now
        .where('lease_owner', '=', owner)
        .where('status', '=', 'pending')
        .execute();
    }
  }

  async releaseLeases(owner: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('notifications')
      .set({ lease_owner: null, next_attempt_at: now })
      .where('status', '=', 'pending')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async list(query: ListQuery): Promise<Page<Notification>> {
    const { total, records } = await notificationResource.page(this.db, this.db.selectFrom('notifications as n'), query);
    return { total, items: records.map((record) => record.view) };
  }

  async emailNotifications(userId: number): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('email_notifications').where('id', '=', userId).executeTakeFirstOrThrow();
    return toBool(row.email_notifications);
  }

  async setEmailNotifications(userId: number, on: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email_notifications: on ? 1 : 0 })
      .where('id', '=', userId)
      .execute();
  }

  async unsubscribe(key: string): Promise<boolean> {
    const row = await this.db.selectFrom('notifications').select('user_id').where('unsubscribe_key', '=', key).executeTakeFirst();
    if (!row) return false;
    await this.db.updateTable('users').set({ email_notifications: 0 }).where('id', '=', row.user_id).execute();
    return true;
  }

  async markReminders({ kind, from, to, now, limit, after }: ReminderBatch): Promise<MarkedReminders> {
    // The states are written into the statement, not bound: bound, SQLite's planner read every
    // outstanding assignment through the (state, created) index and probed and sorted them all for
    // each batch, from the first row again each time (the first sweep over a million assignments
    // took minutes). Written in, and walked from `after`, a batch reads open assignments by due
    // date from where the last one stopped.
    const candidates = this.db
      .selectFrom('assignments as a')
      .select(['a.id as assignment_id', sql.lit(kind).as('kind'), sql.val(now).as('created')])
      .where('a.deleted_at', 'is', null)
      .where(
        'a.state',
        'in',
        outstandingStates.map((state) => sql.lit(state)),
      )
      .where('a.due_date', 'is not', null)
      .where('a.due_date', '<=', to)
      .$if(from !== null, (q) => q.where('a.due_date', '>=', from!))
      .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('a.due_date', 'a.id'), '>', eb.tuple(after!.due_date, after!.id))))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('assignment_reminders as r')
              .select('r.assignment_id')
              .whereRef('r.assignment_id', '=', 'a.id')
              .where('r.kind', '=', kind),
          ),
        ),
      )
      .orderBy('a.due_date')
      .orderBy('a.id')
      .limit(limit);
    // the primary key decides between two sweeps: only the rows this insert wrote come back
    const marked = await this.db
      .insertInto('assignment_reminders')
      .columns(['assignment_id', 'kind', 'created'])
      .expression(candidates)
      .onConflict((oc) => oc.doNothing())
      .returning('assignment_id')
      .execute();
    if (marked.length === 0) return { assignments: [], next: null };
    const rows = await this.db
      .selectFrom('assignments as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .innerJoin('content_items as ci', 'ci.id', 'a.content_id')
      .select(['a.id', 'u.public_id as user_public_id', 'a.public_id as assignment_public_id', 'ci.name as content_name', 'a.due_date'])
      .where(
        'a.id',
        'in',
        marked.map((row) => row.assignment_id),
      )
      .orderBy('a.due_date')
      .orderBy('a.id')
      .$narrowType<{ due_date: string }>()
      .execute();
    const last = rows[rows.length - 1]!;
    return {
      assignments: rows.map(({ id: _id, ...assignment }) => assignment),
      next: { due_date: last.due_date, id: last.id },
    };
  }
}
