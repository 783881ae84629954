import type { Stores } from '../ports/storage.ts';
import { PING_EVENT_TYPE } from './webhook-delivery.ts';

/**
 * Turning an endpoint off ends what it still owes: re-enabling resumes with new events only
 * (docs/webhooks.md). Pings are kept, since they are delivered to inactive endpoints by design.
 */
export async function cancelOwedDeliveries(tx: Stores, endpointId: number): Promise<void> {
  await tx.webhookDeliveries.cancelPending(endpointId, PING_EVENT_TYPE);
}
