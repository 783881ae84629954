import type { WebhookEvent } from '../webhooks/webhook-event.ts';

export interface OutboxEntry {
  /** monotonically increasing position, the delivery engine's cursor */
  sequence: number;
  event: WebhookEvent;
}

export interface OutboxStore {
  append(event: WebhookEvent): Promise<void>;
  /** Several events in one statement, in the order given. */
  appendMany(events: readonly WebhookEvent[]): Promise<void>;
  /** Events recorded after `sequence`, oldest first. */
  readAfter(sequence: number, limit: number): Promise<OutboxEntry[]>;
  /** Whether any event was recorded after `sequence`: the delivery engine asks on every pass. */
  hasEventsAfter(sequence: number): Promise<boolean>;
}
