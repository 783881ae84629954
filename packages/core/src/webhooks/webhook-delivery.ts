/**
 * Deliveries and their attempts (docs/webhooks.md). A delivery is one event owed to one endpoint; every
 * try at sending it is an attempt, and the deliveries route lists attempts, newest first.
 */
import { z } from 'zod';
import { badRequest } from '../shared/errors.ts';
import { datetimeField } from '../shared/schema.ts';
import { parsePageSize, queryParam, type QueryParams } from '../shared/list-query.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

/** The event `POST /webhooks/<id>/test/` sends; it is not subscribable, so only that endpoint gets it. */
export const PING_EVENT_TYPE = 'webhook.ping';

export const ATTEMPT_ID_PREFIX = 'att_';
const ATTEMPT_ID = /^att_[0-9A-HJKMNP-TV-Z]{26}$/;
const EVENT_ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;

/** How much of a receiver's answer is kept: enough to read an error message, not a web page. */
export const RESPONSE_BODY_LIMIT_BYTES = 1024;

/**
 * `pending` until an attempt succeeds or the schedule runs out (`failed`); `cancelled` when the
 * endpoint was deleted or turned off before the delivery finished.
 */
export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export const deliveryAttemptSchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int(),
    status: z.enum(['succeeded', 'failed']),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    created_at: z.string(),
    /** when the delivery is tried again after this failed attempt; null when it will not be */
    next_attempt_at: z.string().nullable(),
    /** the headers sent (the webhook-* three, content-type, user-agent); null when nothing was sent */
    request_headers: z.record(z.string(), z.string()).nullable(),
    /** the body sent: the event's envelope, the same for every attempt */
    payload: z.record(z.string(), z.unknown()),
  })
  .register(apiSchemaNames, { id: 'DeliveryAttempt' });
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const isAttemptId = (value: string): boolean => ATTEMPT_ID.test(value);

/** `POST …/recover/`: every event whose last attempt failed at or after `since` is attempted again. */
export const recoverDeliveriesInput = z.strictObject({ since: datetimeField() }).register(apiSchemaNames, { id: 'WebhookRecover' });

export interface AttemptQuery {
  pageSize: number;
  /** the id of the last attempt of the previous page */
  cursor?: string;
  eventId?: string;
}

export function parseAttemptQuery(params: QueryParams): AttemptQuery {
  const pageSize = parsePageSize(params);
  const cursor = queryParam(params, 'cursor');
  const eventId = queryParam(params, 'event_id');
  if (cursor && !ATTEMPT_ID.test(cursor)) throw badRequest("Query parameter 'cursor' is not a cursor this list returned.");
  if (eventId && !EVENT_ID.test(eventId)) throw badRequest("Query parameter 'event_id' must be an event id (msg_…).");
  return { pageSize, ...(cursor ? { cursor } : {}), ...(eventId ? { eventId } : {}) };
}
