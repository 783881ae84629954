import { sql, type InferResult, type Kysely, type SelectQueryBuilder } from 'kysely';
import { PING_EVENT_TYPE, readForExport, type AttemptQuery, type DeliveryAttempt } from '@lectern/core';
import {
  type AttemptDelivery,
  type DeliveryProgress,
  type DueDelivery,
  type FanOutResult,
  type NewAttemptRow,
  type WebhookDeliveryStore,
} from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { offloadedReadOf, rowsOf } from '../shared/offloaded-reads.ts';
import type { WebhookDeliveriesTable } from '../schema/webhooks.ts';
import { preparedQuery } from '../shared/prepared-query.ts';

// Inlined rather than bound: SQLite uses the partial index on pending deliveries only when the
// query's condition is visibly the index's own.
const PENDING = sql.lit('pending');

// Every attempt writes these two rows: built and compiled once (see prepared-query.ts), since
// building a kysely query costs more than SQLite takes to write the row.
const insertAttempt = preparedQuery(
  14,
  (
    db: Kysely<Database>,
    publicId: string,
    deliveryId: number,
    endpointId: number,
    eventId: string,
    eventType: string,
    attempt: number,
    status: string,
    responseStatus: number | null,
    body: string | null,
    error: string | null,
    ms: number,
    at: string,
    next: string | null,
    headers: string | null,
  ) =>
    db.insertInto('webhook_attempts').values({
      public_id: publicId,
      delivery_id: deliveryId,
      endpoint_id: endpointId,
      event_id: eventId,
      event_type: eventType,
      attempt,
      status,
      response_status: responseStatus,
      response_body: body,
      error,
      duration_ms: ms,
      created_at: at,
      next_attempt_at: next,
      request_headers: headers,
    }),
);
const advanceDelivery = preparedQuery(
  5,
  (db: Kysely<Database>, state: string, attempts: number, next: string | null, at: string, id: number) =>
    db
      .updateTable('webhook_deliveries')
      .set({ state, attempts, next_attempt_at: next, lease_until: null, final_attempt: 0, modified: at })
      .where('id', '=', id),
);

/**
 * Deliveries that are pending and due by `now`, of an endpoint still taking them (pings go to any
 * endpoint). A leased delivery is due only when its lease runs out (claim() moves it), so
 * deliveries in flight never sit in the way of the index walk.
 */
function whereDue<Q extends SelectQueryBuilder<Database & { d: WebhookDeliveriesTable }, 'd', object>>(query: Q, now: string): Q {
  return query
    .where('d.state', '=', PENDING)
    .where('d.next_attempt_at', '<=', now)
    .where((eb) =>
      eb.or([
        eb('d.event_type', '=', PING_EVENT_TYPE),
        eb.exists(
          eb
            .selectFrom('webhook_endpoints as te')
            .select('te.id')
            .whereRef('te.id', '=', 'd.endpoint_id')
            .where('te.is_active', '=', 1)
            .where('te.deleted_at', 'is', null),
        ),
      ]),
    ) as Q;
}

// CROSS JOIN fixes the deliveries as the outer loop, so SQLite walks the due index in order and
// stops at the limit, instead of starting from the endpoint and sorting its whole history. Every
// claim runs it: compiled once (see prepared-query.ts).
const dueOfEndpoint = preparedQuery(3, (db: Kysely<Database>, endpointId: number, now: string, limit: number) =>
  whereDue(
    db
      .selectFrom('webhook_deliveries as d')
      .crossJoin('outbox_events as o')
      .whereRef('o.event_id', '=', 'd.event_id')
      .select(['d.id', 'd.endpoint_id', 'd.event_id', 'd.event_type', 'd.attempts', 'd.final_attempt', 'o.payload']),
    now,
  )
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit),
);

// Every engine pass asks this, idle or not (every 25 ms by default): compiled once, so an idle
// server does not spend its time building the same query (see prepared-query.ts).
const endpointsWithDue = preparedQuery(1, (db: Kysely<Database>, now: string) =>
  db
    .selectFrom('webhook_endpoints as e')
    .select('e.id')
    .where('e.deleted_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(whereDue(selectFrom('webhook_deliveries as d').select('d.id'), now).whereRef('d.endpoint_id', '=', 'e.id')),
    ),
);

// Qualified throughout: the public id is selected *as* `id`, which would otherwise shadow the
// internal id in ORDER BY.
const attemptColumns = [
  'a.public_id as id',
  'a.event_id',
  'a.event_type',
  'a.attempt',
  'a.status',
  'a.response_status',
  'a.response_body',
  'a.error',
  'a.duration_ms',
  'a.created_at',
  'a.next_attempt_at',
  'a.request_headers',
  'o.payload',
] as const;

/**
 * Sets deliveries due again: a finished one for one final attempt, a pending one only brought
 * forward (its schedule goes on). `modified` is left alone: it stays the time of the last attempt,
 * which is what recovery selects by.
 */
const setDueAgain = (db: Kysely<Database>, now: string) =>
  db.updateTable('webhook_deliveries').set((eb) => ({
    final_attempt: eb.case().when('state', '=', PENDING).then(eb.ref('final_attempt')).else(1).end(),
    state: PENDING,
    next_attempt_at: now,
    lease_until: null,
    lease_owner: null,
  }));

export class WebhookDeliveryRepository implements WebhookDeliveryStore {
  constructor(private readonly db: Kysely<Database>) {}

  async dispatchCursor(): Promise<number> {
    // an update that changes nothing: it takes the row's write lock (PostgreSQL) or the database's
    // (SQLite) until the transaction ends, so another dispatcher waits and then reads the new cursor
    const row = await this.db
      .updateTable('webhook_dispatch_state')
      .set((eb) => ({ outbox_sequence: eb.ref('outbox_sequence') }))
      .where('id', '=', 1)
      .returning('outbox_sequence')
      .executeTakeFirst();
    return row?.outbox_sequence ?? 0;
  }

  async setDispatchCursor(sequence: number): Promise<void> {
    await this.db.updateTable('webhook_dispatch_state').set({ outbox_sequence: sequence }).where('id', '=', 1).execute();
  }

  async fanOut(afterSequence: number, limit: number, dueAt: string): Promise<FanOutResult | null> {
    const batch = this.db
      .selectFrom('outbox_events')
      .select('sequence')
      .where('sequence', '>', afterSequence)
      .orderBy('sequence')
      .limit(limit)
      .as('batch');
    const range = await this.db
      .selectFrom(batch)
      .select((eb) => [eb.fn.max('batch.sequence').as('last'), eb.fn.countAll<number>().as('events')])
      .executeTakeFirstOrThrow();
    const events = Number(range.events);
    if (events === 0 || range.last === null) return null;
    const lastSequence = Number(range.last);

    // One statement for the whole batch: every (event, subscribed active endpoint) pair, where the
    // subscription existed before the event was recorded.
    const inserted = await this.db
      .insertInto('webhook_deliveries')
      .columns(['endpoint_id', 'event_id', 'event_type', 'state', 'attempts', 'next_attempt_at', 'created', 'modified'])
      .expression((eb) =>
        eb
          .selectFrom('outbox_events as o')
          .innerJoin('webhook_endpoint_events as ee', 'ee.event_type', 'o.type')
          .innerJoin('webhook_endpoints as e', 'e.id', 'ee.endpoint_id')
          .select((s) => [
            'e.id',
            'o.event_id',
            'o.type',
            PENDING.as('state'),
            sql.lit(0).as('attempts'),
            s.val(dueAt).as('next_attempt_at'),
            s.val(dueAt).as('created'),
            s.val(dueAt).as('modified'),
          ])
          .where('o.sequence', '>', afterSequence)
          .where('o.sequence', '<=', lastSequence)
          .where('e.is_active', '=', 1)
          .where('e.deleted_at', 'is', null)
          .whereRef('e.starts_after_sequence', '<', 'o.sequence')
          // ids in event order: deliveries due together are then claimed in the order things happened
          .orderBy('o.sequence'),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return { lastSequence, events, deliveries: Number(inserted.numInsertedOrUpdatedRows ?? 0) };
  }

  async insert(row: { endpointId: number; eventId: string; eventType: string; dueAt: string }): Promise<void> {
    await this.db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: row.endpointId,
        event_id: row.eventId,
        event_type: row.eventType,
        state: 'pending',
        next_attempt_at: row.dueAt,
        lease_until: null,
        created: row.dueAt,
        modified: row.dueAt,
      })
      .execute();
  }

  async endpointsWithDueDeliveries(now: string): Promise<number[]> {
    const rows = await endpointsWithDue(this.db, now);
    return rows.map((row) => row.id);
  }

  async findDue(endpointId: number, now: string, limit: number): Promise<DueDelivery[]> {
    const rows = await dueOfEndpoint(this.db, endpointId, now, limit);
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      eventType: row.event_type,
      attempts: row.attempts,
      payload: row.payload,
      finalAttempt: row.final_attempt === 1,
    }));
  }

  async claim(ids: readonly number[], owner: string, until: string, now: string): Promise<number[]> {
    if (ids.length === 0) return [];
    // still due is the condition: a competing claim committed first has moved next_attempt_at on
    const rows = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: until, lease_owner: owner, next_attempt_at: until })
      .where('id', 'in', [...ids])
      .where('state', '=', PENDING)
      .where('next_attempt_at', '<=', now)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async releaseLeases(owner: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: null, lease_owner: null, next_attempt_at: now })
      .where('state', '=', PENDING)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async recordAttempt(attempt: NewAttemptRow, progress: DeliveryProgress): Promise<void> {
    await insertAttempt(
      this.db,
      attempt.publicId,
      attempt.deliveryId,
      attempt.endpointId,
      attempt.eventId,
      attempt.eventType,
      attempt.attempt,
      attempt.succeeded ? 'succeeded' : 'failed',
      attempt.responseStatus,
      attempt.responseBody,
      attempt.error,
      attempt.durationMs,
      attempt.createdAt,
      attempt.nextAttemptAt,
      attempt.requestHeaders === null ? null : JSON.stringify(attempt.requestHeaders),
    );
    await advanceDelivery(this.db, progress.state, progress.attempts, progress.nextAttemptAt, attempt.createdAt, attempt.deliveryId);
  }

  async cancel(id: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ state: 'cancelled', next_attempt_at: null, lease_until: null })
      .where('id', '=', id)
      .where('state', '=', PENDING)
      .execute();
  }

  async cancelPending(endpointId: number, keepType?: string): Promise<number> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ state: 'cancelled', next_attempt_at: null })
      .where('endpoint_id', '=', endpointId)
      .where('state', '=', PENDING)
      .$if(keepType !== undefined, (q) => q.where('event_type', '!=', keepType!))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async findAttemptDelivery(endpointId: number, attemptPublicId: string): Promise<AttemptDelivery | undefined> {
    const row = await this.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['d.id', 'd.event_id', 'd.event_type', 'd.state', 'd.lease_until'])
      .where('a.public_id', '=', attemptPublicId)
      .where('a.endpoint_id', '=', endpointId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      deliveryId: row.id,
      eventId: row.event_id,
      eventType: row.event_type,
      state: row.state as AttemptDelivery['state'],
      leaseUntil: row.lease_until,
    };
  }

  async attemptAgain(deliveryId: number, now: string): Promise<void> {
    await setDueAgain(this.db, now).where('id', '=', deliveryId).execute();
  }

  async attemptFailedAgain(endpointId: number, since: string, now: string): Promise<number> {
    // Every attempted delivery that did not end in success had a failed last attempt, made when
    // the delivery was last modified (cancelling leaves `modified` alone).
    const result = await setDueAgain(this.db, now)
      .where('endpoint_id', '=', endpointId)
      .where('attempts', '>', 0)
      .where('state', '!=', 'succeeded')
      .where('modified', '>=', since)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async listAttempts(endpointId: number, query: AttemptQuery): Promise<{ items: DeliveryAttempt[]; hasMore: boolean } | null> {
    let before: number | undefined;
    if (query.cursor !== undefined) {
      const row = await this.db
        .selectFrom('webhook_attempts')
        .select('id')
        .where('public_id', '=', query.cursor)
        .where('endpoint_id', '=', endpointId)
        .executeTakeFirst();
      if (!row) return null;
      before = row.id;
    }
    const page = this.db
      .selectFrom('webhook_attempts as a')
      .leftJoin('outbox_events as o', 'o.event_id', 'a.event_id')
      .select(attemptColumns)
      .where('a.endpoint_id', '=', endpointId)
      .$if(query.eventId !== undefined, (q) => q.where('a.event_id', '=', query.eventId!))
      .$if(before !== undefined, (q) => q.where('a.id', '<', before!))
      .orderBy('a.id', 'desc')
      .limit(query.pageSize + 1);
    // an export's pages are read on a read thread where there is one (audit-repository.ts)
    const rows = await rowsOf<InferResult<typeof page>[number]>(page, readForExport() ? offloadedReadOf(this.db) : undefined);
    const items = rows.slice(0, query.pageSize).map((row): DeliveryAttempt => ({
      id: row.id,
      event_id: row.event_id,
      event_type: row.event_type,
      attempt: row.attempt,
      status: row.status as DeliveryAttempt['status'],
      response_status: row.response_status,
      response_body: row.response_body,
      error: row.error,
      duration_ms: row.duration_ms,
      created_at: row.created_at,
      next_attempt_at: row.next_attempt_at,
      request_headers: row.request_headers === null ? null : (JSON.parse(row.request_headers) as Record<string, string>),
      payload: JSON.parse(row.payload ?? '{}') as Record<string, unknown>,
    }));
    return { items, hasMore: rows.length > query.pageSize };
  }

  async backlog(): Promise<{ pending: number; oldestCreated: string | null }> {
    // the pending-only index holds exactly the rows counted: its size is the backlog, not the history
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created').as('oldest')])
      .where('state', '=', PENDING)
      .executeTakeFirstOrThrow();
    return { pending: Number(row.pending), oldestCreated: row.oldest ?? null };
  }
}
