import type { WebhookEvent } from '../webhooks/webhook-event.ts';

export interface OutboxEntry {
  /** monotonically increasing position, the delivery engine's cursor */
  sequence: number;
  event: WebhookEvent;
}

export interface OutboxStore {
  append(event: WebhookEvent): Promise<void>;
  /** Events recorded after `sequence`, oldest first. */
  readAfter(sequence: number, limit: number): Promise<OutboxEntry[]>;
}
