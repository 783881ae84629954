/**
 * Runs attempts: claims due deliveries within the concurrency bounds (overall and per endpoint),
 * and takes each through prepare → send → record on a p-queue.
 */
import PQueue from 'p-queue';
import type { Storage } from '../ports/storage.ts';
import type { DueDelivery } from '../ports/webhook-store.ts';
import { toIso, type Clock } from '../shared/clock.ts';
import { prepareAttempt } from './delivery-prepare.ts';
import type { DeliveryRecorder } from './delivery-recorder.ts';
import type { DeliverySender } from './delivery-sender.ts';
import type { SendResult } from './delivery-outcome.ts';

export interface WorkerDeps {
  storage: Storage;
  clock: Clock;
  sender: DeliverySender;
  recorder: DeliveryRecorder;
  concurrency: number;
  concurrencyPerEndpoint: number;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** called when an attempt ends, since a slot is free again */
  onSettled: () => void;
  onError: (error: unknown, message: string) => void;
}

/**
 * A claimed delivery stays leased this long past the attempt's timeout. Only another process (or a
 * stuck one) ever waits for a lease to run out: a fresh start releases them all.
 */
const LEASE_MARGIN_MS = 60_000;

/** The candidates that fit under each endpoint's cap, given what is already in flight. */
export function pickWithinCaps(candidates: readonly DueDelivery[], inFlight: ReadonlyMap<number, number>, cap: number): DueDelivery[] {
  const counts = new Map(inFlight);
  const picked: DueDelivery[] = [];
  for (const delivery of candidates) {
    const count = counts.get(delivery.endpointId) ?? 0;
    if (count >= cap) continue;
    counts.set(delivery.endpointId, count + 1);
    picked.push(delivery);
  }
  return picked;
}

export class DeliveryWorker {
  private readonly queue: PQueue;
  private readonly perEndpoint = new Map<number, number>();
  private readonly interrupt = new AbortController();
  private inFlight = 0;
  private accepting = true;

  constructor(private readonly deps: WorkerDeps) {
    this.queue = new PQueue({ concurrency: deps.concurrency });
  }

  /** Starts attempts for due deliveries while there is room; true when more may be waiting. */
  async fill(): Promise<boolean> {
    const room = this.deps.concurrency - this.inFlight;
    if (!this.accepting || room <= 0) return false;
    const saturated = [...this.perEndpoint].filter(([, count]) => count >= this.deps.concurrencyPerEndpoint).map(([id]) => id);
    const now = this.deps.clock.now();
    const query = { now: toIso(now), limit: room, excludeEndpoints: saturated };
    // Looking costs no write lock; most passes find nothing.
    if ((await this.deps.storage.webhookDeliveries.findDue(query)).length === 0) return false;

    const leaseUntil = toIso(new Date(now.getTime() + this.deps.timeoutMs + LEASE_MARGIN_MS));
    const { picked, candidates } = await this.deps.storage.transaction(async (tx) => {
      const due = await tx.webhookDeliveries.findDue(query);
      const chosen = pickWithinCaps(due, this.perEndpoint, this.deps.concurrencyPerEndpoint);
      if (chosen.length > 0) await tx.webhookDeliveries.lease(chosen.map((d) => d.id), leaseUntil);
      return { picked: chosen, candidates: due.length };
    });
    for (const delivery of picked) this.begin(delivery);
    return candidates === room;
  }

  /**
   * Stops claiming and waits up to `graceMs` for attempts in flight; then aborts the rest, which
   * stay leased and unrecorded, so the next start sends them again.
   */
  async stop(graceMs: number): Promise<void> {
    this.accepting = false;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.queue.onIdle(), grace]);
    clearTimeout(timer);
    this.interrupt.abort();
    await this.queue.onIdle();
  }

  private begin(delivery: DueDelivery): void {
    this.inFlight++;
    this.perEndpoint.set(delivery.endpointId, (this.perEndpoint.get(delivery.endpointId) ?? 0) + 1);
    void this.queue
      .add(() => this.attempt(delivery))
      .catch((error: unknown) => this.deps.onError(error, 'webhook attempt could not be recorded; it will be retried'))
      .finally(() => {
        this.inFlight--;
        const left = (this.perEndpoint.get(delivery.endpointId) ?? 1) - 1;
        if (left === 0) this.perEndpoint.delete(delivery.endpointId);
        else this.perEndpoint.set(delivery.endpointId, left);
        this.deps.onSettled();
      });
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const endpoint = await this.deps.storage.webhookEndpoints.findById(delivery.endpointId);
    const prepared = await prepareAttempt(delivery, endpoint, {
      allowPrivateTargets: this.deps.allowPrivateTargets,
      now: this.deps.clock.now(),
    });
    if (prepared.kind === 'cancel') return this.deps.recorder.cancel(delivery);
    let result: SendResult | 'interrupted';
    if (prepared.kind === 'refuse') {
      result = { status: null, retryAfter: null, responseBody: null, error: prepared.error, durationMs: 0 };
    } else {
      result = await this.deps.sender.send(prepared.request, this.interrupt.signal);
    }
    if (result === 'interrupted') return;
    await this.deps.recorder.recordAttempt(delivery, result);
  }
}
