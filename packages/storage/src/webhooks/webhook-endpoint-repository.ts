import { sql, type Kysely } from 'kysely';
import {
  webhookListSpec,
  webhookSubscriptionSchema,
  type ListQuery,
  type Page,
  type WebhookEndpointRecord,
  type WebhookSubscription,
} from '@lectern/core';
import { type NewWebhookEndpointRow, type WebhookEndpointChanges, type WebhookEndpointStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';

import { defineResource, recordOf } from '../listing/resource-definition.ts';
import { insertRow } from '../shared/insert-row.ts';
import { preparedLookup } from '../shared/prepared-query.ts';

/** Subscriptions, from core's webhookSubscriptionSchema: the API's `id` is the public id; events are kept as JSON. */
const endpointResource = defineResource<WebhookSubscription, Omit<WebhookEndpointRecord, 'view'>, { e: 'webhook_endpoints' }>(
  webhookSubscriptionSchema,
  webhookListSpec,
  {
    table: 'webhook_endpoints',
    alias: 'e',
    internal: { id: 'e.id', secret: 'e.secret', firstFailureAt: 'e.first_failure_at' },
    fields: { id: { column: 'e.public_id' }, events: { json: true } },
    tiebreak: 'e.id',
  },
);

const liveEndpoints = (db: Kysely<Database>) => db.selectFrom('webhook_endpoints as e').where('e.deleted_at', 'is', null);

// read with every claim of deliveries and every batch of attempts: compiled once (see prepared-query.ts)
const endpointById = preparedLookup(1, (db: Kysely<Database>, id: number) =>
  endpointResource.select(liveEndpoints(db)).where('e.id', '=', id),
);

function toEndpointRecord(row: Record<string, unknown>): WebhookEndpointRecord {
  return recordOf(endpointResource.toRecord(row));
}

export class WebhookEndpointRepository implements WebhookEndpointStore {
  constructor(private readonly db: Kysely<Database>) {}

  private live() {
    return liveEndpoints(this.db);
  }

  async insert(row: NewWebhookEndpointRow): Promise<WebhookEndpointRecord> {
    const id = await insertRow(this.db, 'webhook_endpoints', {
      ...endpointResource.toColumns(row),
      disabled_reason: null,
      first_failure_at: null,
      // read in the insert itself, so no event can slip in between (the write lock is held)
      starts_after_sequence: sql<number>`(select coalesce(max(sequence), 0) from outbox_events)`,
      created: row.created,
      modified: row.created,
      deleted_at: null,
    });
    await this.subscribe(id, row.events);
    return (await this.findById(id))!;
  }

  async update(id: number, changes: WebhookEndpointChanges): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set(endpointResource.toColumns(changes)).where('id', '=', id).execute();
    if (changes.events !== undefined) {
      await this.db.deleteFrom('webhook_endpoint_events').where('endpoint_id', '=', id).execute();
      await this.subscribe(id, changes.events);
    }
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set({ deleted_at: at, is_active: 0 }).where('id', '=', id).execute();
  }

  async findById(id: number): Promise<WebhookEndpointRecord | undefined> {
    const row = await endpointById(this.db, id);
    return row ? toEndpointRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await endpointResource.select(this.live()).where('e.public_id', '=', publicId).executeTakeFirst();
    return row ? toEndpointRecord(row) : undefined;
  }

  async list(query: ListQuery): Promise<Page<WebhookEndpointRecord>> {
    const { total, records } = await endpointResource.page(this.db, this.live(), query);
    return { total, items: records.map(recordOf) };
  }

  private async subscribe(endpointId: number, events: readonly string[]): Promise<void> {
    if (events.length === 0) return;
    await this.db
      .insertInto('webhook_endpoint_events')
      .values(events.map((eventType) => ({ event_type: eventType, endpoint_id: endpointId })))
      .execute();
  }
}
