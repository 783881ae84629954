import type { ListQuery, Page } from '../shared/list-query.ts';
import type { AttemptQuery, DeliveryAttempt, DeliveryState } from '../webhooks/webhook-delivery.ts';
import type { WebhookEndpointRecord } from '../webhooks/webhook-subscription.ts';

export interface NewWebhookEndpointRow {
  publicId: string;
  url: string;
  /** concrete event types, already expanded */
  events: readonly string[];
  description: string;
  isActive: boolean;
  secret: string;
  created: string;
}

export interface WebhookEndpointChanges {
  url?: string;
  events?: readonly string[];
  description?: string;
  isActive?: boolean;
  disabledReason?: string | null;
  secret?: string;
  firstFailureAt?: string | null;
  /** absent for the engine's bookkeeping, which is not a change a client made */
  modified?: string;
}

/** Subscriptions. Deleted ones are invisible to every read. */
export interface WebhookEndpointStore {
  insert(row: NewWebhookEndpointRow): Promise<WebhookEndpointRecord>;
  update(id: number, changes: WebhookEndpointChanges): Promise<void>;
  softDelete(id: number, at: string): Promise<void>;
  findById(id: number): Promise<WebhookEndpointRecord | undefined>;
  findByPublicId(publicId: string): Promise<WebhookEndpointRecord | undefined>;
  list(query: ListQuery): Promise<Page<WebhookEndpointRecord>>;
}

/** A delivery ready for an attempt, with the stored envelope to send. */
export interface DueDelivery {
  id: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  /** attempts already recorded */
  attempts: number;
  /** the outbox envelope, byte for byte what is signed and sent */
  payload: string;
  /** a one-off attempt a person asked for: if it fails, nothing more is scheduled */
  finalAttempt: boolean;
}

/** The delivery an attempt belongs to, as a retry needs it. */
export interface AttemptDelivery {
  deliveryId: number;
  eventId: string;
  eventType: string;
  state: DeliveryState;
  /** an attempt is in flight: a process holds the delivery until this instant */
  leaseUntil: string | null;
}

export interface FanOutResult {
  /** the last outbox sequence handled: the dispatcher's next cursor */
  lastSequence: number;
  events: number;
  deliveries: number;
}

export interface NewAttemptRow {
  publicId: string;
  deliveryId: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  attempt: number;
  succeeded: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  createdAt: string;
  nextAttemptAt: string | null;
  /** the headers sent; null when nothing was (the target was refused) */
  requestHeaders: Record<string, string> | null;
}

/** Where a delivery goes after an attempt. */
export interface DeliveryProgress {
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
}

export interface WebhookDeliveryStore {
  /**
   * The last outbox sequence already fanned out. In a transaction it also holds the cursor against
   * other processes until the transaction ends, so two processes never fan out the same events.
   */
  dispatchCursor(): Promise<number>;
  setDispatchCursor(sequence: number): Promise<void>;
  /**
   * Creates a pending delivery, due at `dueAt`, for each of the first `limit` outbox events after
   * `afterSequence` and each active endpoint subscribed to its type that was created before the
   * event was recorded. Null when there are no such events.
   */
  fanOut(afterSequence: number, limit: number, dueAt: string): Promise<FanOutResult | null>;
  /** One delivery for one endpoint, outside the fan-out (the ping). */
  insert(row: { endpointId: number; eventId: string; eventType: string; dueAt: string }): Promise<void>;
  /**
   * Endpoints with a pending delivery due by `now`: live endpoints that are active, or any live
   * endpoint for pings.
   */
  endpointsWithDueDeliveries(now: string): Promise<number[]>;
  /** Up to `limit` of those deliveries of one endpoint, oldest due first. */
  findDue(endpointId: number, now: string, limit: number): Promise<DueDelivery[]>;
  /**
   * Marks those of `ids` still due at `now` as attempted by `owner` until `until`, and returns them:
   * no pass, in this process or another, claims them again before then. Another process that read
   * the same deliveries as due gets none of them.
   */
  claim(ids: readonly number[], owner: string, until: string, now: string): Promise<number[]>;
  /**
   * Makes the deliveries `owner` holds due at `now`: a process started again under the same id
   * retries what it left in flight, without touching what other live processes are attempting.
   */
  releaseLeases(owner: string, now: string): Promise<number>;
  recordAttempt(attempt: NewAttemptRow, progress: DeliveryProgress): Promise<void>;
  /** Ends a delivery without an attempt (its endpoint is gone or was turned off). */
  cancel(id: number): Promise<void>;
  /** Cancels the endpoint's pending deliveries; with `keepType`, not those of that event type. */
  cancelPending(endpointId: number, keepType?: string): Promise<number>;
  /** The delivery of the endpoint's attempt `attemptPublicId`; undefined when there is no such attempt. */
  findAttemptDelivery(endpointId: number, attemptPublicId: string): Promise<AttemptDelivery | undefined>;
  /**
   * Makes the delivery due at `now`. A finished one (succeeded, failed, cancelled) becomes pending
   * for one final attempt; a pending one is only brought forward and keeps its schedule.
   */
  attemptAgain(deliveryId: number, now: string): Promise<void>;
  /**
   * Makes due at `now`, like attemptAgain, every delivery of the endpoint whose last attempt
   * failed at or after `since` and that no process is attempting; returns how many.
   */
  attemptFailedAgain(endpointId: number, since: string, now: string): Promise<number>;
  /** Attempts to one endpoint, newest first; `hasMore` when another page follows. Null when the cursor is unknown. */
  listAttempts(endpointId: number, query: AttemptQuery): Promise<{ items: DeliveryAttempt[]; hasMore: boolean } | null>;
  /** The pending deliveries: how many, and when the oldest was created (null when there are none). */
  backlog(): Promise<{ pending: number; oldestCreated: string | null }>;
}
