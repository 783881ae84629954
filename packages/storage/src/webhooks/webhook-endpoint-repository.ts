import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  ListQuery,
  NewWebhookEndpointRow,
  Page,
  WebhookEndpointChanges,
  WebhookEndpointRecord,
  WebhookEndpointStore,
} from '@lectern/core';
import type { Database, WebhookEndpointsTable } from '../schema.ts';
import { applyFilters, fetchPage, fromBool, toBool, type ListDefinition } from '../shared/list-builder.ts';

type EndpointRow = Selectable<WebhookEndpointsTable>;

const endpointListDefinition: ListDefinition = {
  filters: {
    is_active: (eb, value) => eb('e.is_active', '=', fromBool(value === true)),
  },
  ranges: { created: 'e.created', modified: 'e.modified' },
  search: ['e.url', 'e.description'],
  ordering: { created: 'e.created', modified: 'e.modified', url: 'e.url' },
  tiebreak: 'e.id',
};

function toEndpointRecord(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    secret: row.secret,
    firstFailureAt: row.first_failure_at,
    view: {
      id: row.public_id,
      url: row.url,
      events: JSON.parse(row.events) as string[],
      description: row.description,
      is_active: toBool(row.is_active),
      disabled_reason: row.disabled_reason,
      created: row.created,
      modified: row.modified,
    },
  };
}

export class WebhookEndpointRepository implements WebhookEndpointStore {
  constructor(private readonly db: Kysely<Database>) {}

  private live() {
    return this.db.selectFrom('webhook_endpoints as e').where('e.deleted_at', 'is', null);
  }

  async insert(row: NewWebhookEndpointRow): Promise<WebhookEndpointRecord> {
    const inserted = await this.db
      .insertInto('webhook_endpoints')
      .values({
        public_id: row.publicId,
        url: row.url,
        events: JSON.stringify(row.events),
        description: row.description,
        is_active: fromBool(row.isActive),
        disabled_reason: null,
        secret: row.secret,
        first_failure_at: null,
        // read in the insert itself, so no event can slip in between (the write lock is held)
        starts_after_sequence: sql<number>`(select coalesce(max(sequence), 0) from outbox_events)`,
        created: row.created,
        modified: row.created,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.subscribe(inserted.id, row.events);
    return (await this.findById(inserted.id))!;
  }

  async update(id: number, changes: WebhookEndpointChanges): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.events !== undefined ? { events: JSON.stringify(changes.events) } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.isActive !== undefined ? { is_active: fromBool(changes.isActive) } : {}),
        ...(changes.disabledReason !== undefined ? { disabled_reason: changes.disabledReason } : {}),
        ...(changes.secret !== undefined ? { secret: changes.secret } : {}),
        ...(changes.firstFailureAt !== undefined ? { first_failure_at: changes.firstFailureAt } : {}),
        ...(changes.modified !== undefined ? { modified: changes.modified } : {}),
      })
      .where('id', '=', id)
      .execute();
    if (changes.events !== undefined) {
      await this.db.deleteFrom('webhook_endpoint_events').where('endpoint_id', '=', id).execute();
      await this.subscribe(id, changes.events);
    }
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set({ deleted_at: at, is_active: 0 }).where('id', '=', id).execute();
  }

  async findById(id: number): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.live().selectAll('e').where('e.id', '=', id).executeTakeFirst();
    return row ? toEndpointRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.live().selectAll('e').where('e.public_id', '=', publicId).executeTakeFirst();
    return row ? toEndpointRecord(row) : undefined;
  }

  async list(query: ListQuery): Promise<Page<WebhookEndpointRecord>> {
    const filtered = applyFilters(this.live(), query, endpointListDefinition);
    const { rows, total } = await fetchPage<EndpointRow>(filtered, query, endpointListDefinition, (q) => q.selectAll('e'));
    return { total, items: rows.map(toEndpointRecord) };
  }

  private async subscribe(endpointId: number, events: readonly string[]): Promise<void> {
    if (events.length === 0) return;
    await this.db
      .insertInto('webhook_endpoint_events')
      .values(events.map((eventType) => ({ event_type: eventType, endpoint_id: endpointId })))
      .execute();
  }
}
