/**
 * The prepare stage: decide, just before an attempt, whether it may go out and sign it. The
 * endpoint is read with each claim, so a new URL, a rotated secret or a deactivation applies to
 * the very next attempt, retries included.
 */
import type { DueDelivery } from '../ports/webhook-store.ts';
import type { SignedRequest } from './delivery-sender.ts';
import { PING_EVENT_TYPE } from './webhook-delivery.ts';
import { webhookHeaders } from './webhook-signature.ts';
import type { WebhookEndpointRecord } from './webhook-subscription.ts';
import { checkWebhookTarget, type HostResolver } from './webhook-target.ts';

export type PreparedAttempt =
  | { kind: 'send'; request: SignedRequest }
  /** the endpoint is gone or turned off: the delivery ends without an attempt */
  | { kind: 'cancel' }
  /** the target fails the address policy now (e.g. DNS changed): a failed attempt, retried later */
  | { kind: 'refuse'; error: string };

export interface PrepareOptions {
  allowPrivateTargets: boolean;
  now: Date;
  resolve?: HostResolver;
}

/** Pings reach inactive endpoints too; everything else only active ones. */
export const mayDeliver = (endpoint: WebhookEndpointRecord | undefined, eventType: string): endpoint is WebhookEndpointRecord =>
  endpoint !== undefined && (endpoint.view.is_active || eventType === PING_EVENT_TYPE);

export async function prepareAttempt(
  delivery: DueDelivery,
  endpoint: WebhookEndpointRecord | undefined,
  options: PrepareOptions,
): Promise<PreparedAttempt> {
  if (!mayDeliver(endpoint, delivery.eventType)) return { kind: 'cancel' };
  const url = endpoint.view.url;
  const problem = await checkWebhookTarget(url, {
    allowPrivateTargets: options.allowPrivateTargets,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  if (problem !== null) return { kind: 'refuse', error: `Target refused: ${problem}` };
  // A fresh timestamp per attempt: receivers reject stale ones, and a retry may come hours later.
  const headers = webhookHeaders({ secret: endpoint.secret, id: delivery.eventId, timestamp: options.now, body: delivery.payload });
  return { kind: 'send', request: { url, headers, body: delivery.payload } };
}
