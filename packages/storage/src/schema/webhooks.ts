/** The outbox of events and their delivery to webhook endpoints. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

export interface OutboxEventsTable {
  sequence: Generated<number>;
  event_id: string;
  type: string;
  created_at: string;
  /** the full JSON envelope as delivered */
  payload: string;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  /** `ep_…` */
  public_id: string;
  url: string;
  /** JSON array of concrete event types, as the API returns them */
  events: string;
  description: string;
  is_active: number;
  disabled_reason: string | null;
  secret: string;
  first_failure_at: string | null;
  /** the last outbox sequence when the subscription was made: it receives only later events */
  starts_after_sequence: number;
  created: string;
  modified: string;
  deleted_at: string | null;
}

export interface WebhookEndpointEventsTable {
  event_type: string;
  endpoint_id: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  /** 'pending' | 'succeeded' | 'failed' | 'cancelled' */
  state: string;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_until: string | null;
  /** the instance id of the process attempting it, with lease_until */
  lease_owner: string | null;
  /** 1 when the next attempt is a one-off a person asked for: its failure schedules nothing more */
  final_attempt: Generated<number>;
  created: string;
  modified: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  /** `att_…` */
  public_id: string;
  delivery_id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  /** 'succeeded' | 'failed' */
  status: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
  next_attempt_at: string | null;
  /** JSON object of the headers sent; null when nothing was sent (a refused target) */
  request_headers: string | null;
}

export interface WebhookDispatchStateTable {
  id: number;
  outbox_sequence: number;
}
