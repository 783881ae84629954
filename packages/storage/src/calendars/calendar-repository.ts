import type { Kysely } from 'kysely';
import { outstandingStates } from '@lectern/core';
import type { CalendarStore, FeedDue, FeedSlot } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { toBool } from '../listing/list-builder.ts';

export class CalendarRepository implements CalendarStore {
  constructor(private readonly db: Kysely<Database>) {}

  async replaceFeed(userId: number, keyHash: string, created: string): Promise<void> {
    await this.db
      .insertInto('calendar_feeds')
      .values({ user_id: userId, key_hash: keyHash, created })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ key_hash: keyHash, created }))
      .execute();
  }

  async deleteFeed(userId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('calendar_feeds').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async feedOwner(keyHash: string): Promise<{ userId: number; name: string; isActive: boolean } | undefined> {
    const row = await this.db
      .selectFrom('calendar_feeds as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['u.id', 'u.name', 'u.is_active'])
      .where('f.key_hash', '=', keyHash)
      .executeTakeFirst();
    return row && { userId: row.id, name: row.name, isActive: toBool(row.is_active) };
  }

  async feedSlots(userId: number): Promise<FeedSlot[]> {
    const rows = await this.db
      .selectFrom('enrollments as en')
      .innerJoin('content_items as ci', 'ci.id', 'en.event_id')
      .innerJoin('event_details as ed', 'ed.content_id', 'ci.id')
      .innerJoin('event_timeslots as ts', 'ts.event_id', 'ci.id')
      .leftJoin('locations as l', 'l.id', 'ed.location_id')
      .select([
        'en.status',
        'ts.id as timeslot_id',
        'ts.starts_at_utc',
        'ts.ends_at_utc',
        'ts.rooms_info',
        'ts.watch_link',
        'ci.public_id',
        'ci.name',
        'ci.description',
        'ci.modified',
        'ed.body_markdown',
        'ed.external_link',
        'ed.calendar_sequence',
        'l.name as location_name',
      ])
      .where('en.user_id', '=', userId)
      .where('en.status', 'in', ['enrolled', 'waitlisted'])
      .where('ci.deleted_at', 'is', null)
      .orderBy('ts.starts_at_utc')
      .orderBy('ts.id')
      .execute();
    return rows.map((row) => ({
      status: row.status as FeedSlot['status'],
      timeslot: {
        id: row.timeslot_id,
        starts_at_utc: row.starts_at_utc,
        ends_at_utc: row.ends_at_utc,
        rooms_info: row.rooms_info,
        watch_link: row.watch_link,
      },
      event: {
        public_id: row.public_id,
        name: row.name,
        description: row.description,
        body_markdown: row.body_markdown,
        external_link: row.external_link,
        location_name: row.location_name,
        modified: row.modified,
        sequence: row.calendar_sequence,
      },
    }));
  }

  async feedDues(userId: number): Promise<FeedDue[]> {
    return this.db
      .selectFrom('assignments as a')
      .innerJoin('content_items as ci', 'ci.id', 'a.content_id')
      .select(['a.public_id as assignment_public_id', 'ci.name as content_name', 'a.due_date', 'a.modified'])
      .where('a.user_id', '=', userId)
      .where('a.deleted_at', 'is', null)
      .where('ci.deleted_at', 'is', null)
      .where('a.state', 'in', [...outstandingStates])
      .where('a.due_date', 'is not', null)
      .orderBy('a.due_date')
      .orderBy('a.id')
      .$narrowType<{ due_date: string }>()
      .execute();
  }
}
