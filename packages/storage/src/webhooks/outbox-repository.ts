import type { Kysely } from 'kysely';
import type { WebhookEvent } from '@lectern/core';
import type { OutboxEntry, OutboxStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';

export class OutboxRepository implements OutboxStore {
  constructor(private readonly db: Kysely<Database>) {}

  async append(event: WebhookEvent): Promise<void> {
    await this.db
      .insertInto('outbox_events')
      .values({ event_id: event.id, type: event.type, created_at: event.created_at, payload: JSON.stringify(event) })
      .execute();
  }

  async readAfter(sequence: number, limit: number): Promise<OutboxEntry[]> {
    const rows = await this.db
      .selectFrom('outbox_events')
      .select(['sequence', 'payload'])
      .where('sequence', '>', sequence)
      .orderBy('sequence')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ sequence: row.sequence, event: JSON.parse(row.payload) as WebhookEvent }));
  }
}
