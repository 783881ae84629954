/**
 * The record and schedule stages: every attempt becomes an attempt row, its delivery moves on
 * (succeeded, due again later, failed) and its endpoint's health is updated, all in one transaction.
 * Attempts finishing close together share a transaction, so a thousand a second cost tens of
 * commits, not thousands. Until it commits, the delivery stays leased: a crash before then resends.
 */
import type { Stores, Storage } from '../ports/storage.ts';
import type { DueDelivery } from '../ports/webhook-store.ts';
import { toIso, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/ids.ts';
import type { DeliveryOutcome, DeliveryOutcomeCounts } from './delivery-counts.ts';
import { judgeAttempt, type SendResult } from './delivery-outcome.ts';
import { mayDeliver } from './delivery-prepare.ts';
import { ATTEMPT_ID_PREFIX, type DeliveryState } from './webhook-delivery.ts';
import { cancelOwedDeliveries } from './owed-deliveries.ts';
import type { WebhookEndpointRecord } from './webhook-subscription.ts';

export interface RecorderDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  schedule: readonly number[];
  disableAfterMs: number;
  /** counted up once each batch commits */
  outcomes?: DeliveryOutcomeCounts;
}

type Entry =
  | { kind: 'attempt'; delivery: DueDelivery; result: SendResult; headers: Record<string, string> | null; at: Date }
  | { kind: 'cancel'; delivery: DueDelivery };

interface Waiting {
  entry: Entry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class DeliveryRecorder {
  private buffer: Waiting[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(private readonly deps: RecorderDeps) {}

  /** Resolves once the attempt is committed; `headers` are those sent, null when nothing was. */
  recordAttempt(delivery: DueDelivery, result: SendResult, headers: Record<string, string> | null): Promise<void> {
    return this.enqueue({ kind: 'attempt', delivery, result, headers, at: this.deps.clock.now() });
  }

  cancel(delivery: DueDelivery): Promise<void> {
    return this.enqueue({ kind: 'cancel', delivery });
  }

  /** Resolves when everything handed over so far is written. */
  async flush(): Promise<void> {
    await this.writeBuffered();
  }

  private enqueue(entry: Entry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.buffer.push({ entry, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // one turn of the event loop gathers the attempts that finished together
      setImmediate(() => void this.writeBuffered());
    });
  }

  private writeBuffered(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      this.scheduled = false;
      const batch = this.buffer;
      this.buffer = [];
      if (batch.length === 0) return;
      try {
        const outcomes = await this.deps.storage.transaction(async (tx) => {
          const endpoints = new Map<number, WebhookEndpointRecord | undefined>();
          const written: DeliveryOutcome[] = [];
          for (const { entry } of batch) written.push(await this.write(tx, entry, endpoints));
          return written;
        });
        if (this.deps.outcomes) for (const outcome of outcomes) this.deps.outcomes[outcome]++;
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    });
    return this.flushing;
  }

  /** Writes one entry; returns what became of its delivery. */
  private async write(tx: Stores, entry: Entry, endpoints: Map<number, WebhookEndpointRecord | undefined>): Promise<DeliveryOutcome> {
    const { delivery } = entry;
    if (entry.kind === 'cancel') {
      await tx.webhookDeliveries.cancel(delivery.id);
      return 'cancelled';
    }
    if (!endpoints.has(delivery.endpointId)) endpoints.set(delivery.endpointId, await tx.webhookEndpoints.findById(delivery.endpointId));
    const endpoint = endpoints.get(delivery.endpointId);
    const attempt = delivery.attempts + 1;
    const verdict = judgeAttempt({
      attempt,
      result: entry.result,
      at: entry.at,
      schedule: this.deps.schedule,
      firstFailureAt: endpoint?.firstFailureAt ? new Date(endpoint.firstFailureAt) : null,
      disableAfterMs: this.deps.disableAfterMs,
    });
    // An endpoint deleted or turned off while this attempt was in flight is owed nothing more; a
    // one-off attempt a person asked for (retry, recover) is owed nothing after itself.
    let state: DeliveryState = verdict.state;
    if (state === 'pending' && !mayDeliver(endpoint, delivery.eventType)) state = 'cancelled';
    else if (state === 'pending' && delivery.finalAttempt) state = 'failed';
    const nextAttemptAt = state === 'pending' && verdict.nextAttemptAt ? toIso(verdict.nextAttemptAt) : null;
    const at = toIso(entry.at);
    await tx.webhookDeliveries.recordAttempt(
      {
        publicId: this.deps.ids.prefixed(ATTEMPT_ID_PREFIX),
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        attempt,
        succeeded: verdict.succeeded,
        responseStatus: entry.result.status,
        responseBody: entry.result.responseBody,
        error: verdict.error,
        durationMs: entry.result.durationMs,
        createdAt: at,
        nextAttemptAt,
        requestHeaders: entry.headers,
      },
      { state, attempts: attempt, nextAttemptAt },
    );
    if (endpoint) await this.updateHealth(tx, endpoint, verdict.firstFailureAt, verdict.disableReason, at);
    return state === 'pending' ? 'retrying' : state;
  }

  private async updateHealth(
    tx: Stores,
    endpoint: WebhookEndpointRecord,
    firstFailureAt: Date | null,
    disableReason: string | null,
    at: string,
  ): Promise<void> {
    const failingSince = firstFailureAt ? toIso(firstFailureAt) : null;
    if (failingSince !== endpoint.firstFailureAt) {
      await tx.webhookEndpoints.update(endpoint.id, { firstFailureAt: failingSince });
      endpoint.firstFailureAt = failingSince;
    }
    if (disableReason !== null && endpoint.view.is_active) {
      await tx.webhookEndpoints.update(endpoint.id, { isActive: false, disabledReason: disableReason, modified: at });
      await cancelOwedDeliveries(tx, endpoint.id);
      endpoint.view = { ...endpoint.view, is_active: false, disabled_reason: disableReason, modified: at };
    }
  }
}
