/**
 * Runs attempts: claims due deliveries within the concurrency bounds (overall and per endpoint),
 * and takes each through prepare → send → record on a p-queue. The bounds count requests in
 * flight: an attempt's slot is free again once its response is in, while its record waits for the
 * recorder's next commit (the delivery stays leased until then, so nothing else claims it).
 */
import PQueue from 'p-queue';
import type { Storage } from '../ports/storage.ts';
import type { DueDelivery } from '../ports/webhook-store.ts';
import { toIso, type Clock } from '../shared/clock.ts';
import { prepareAttempt } from './delivery-prepare.ts';
import type { DeliveryRecorder } from './delivery-recorder.ts';
import { sentHeaders, type DeliverySender } from './delivery-sender.ts';
import type { SendResult } from './delivery-outcome.ts';
import type { WebhookEndpointRecord } from './webhook-subscription.ts';

export interface WorkerDeps {
  storage: Storage;
  clock: Clock;
  sender: DeliverySender;
  recorder: DeliveryRecorder;
  concurrency: number;
  concurrencyPerEndpoint: number;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** this process, as the holder of the deliveries it claims */
  instanceId: string;
  /** called when an attempt's request ends, since a slot is free again */
  onSettled: () => void;
  onError: (error: unknown, message: string) => void;
}

/** A delivery about to be attempted, with its endpoint as it was when claimed (undefined if deleted). */
interface Claim {
  delivery: DueDelivery;
  endpoint: WebhookEndpointRecord | undefined;
}

/**
 * A claimed delivery stays leased this long past the attempt's timeout. Only another process (or a
 * stuck one) ever waits for a lease to run out: a fresh start releases them all.
 */
const LEASE_MARGIN_MS = 60_000;

/**
 * How many attempts each waiting endpoint may start now: in turn order, each up to its cap less
 * what it has in flight, until the overall room runs out.
 */
export function shareOut(
  waiting: Iterable<number>,
  inFlight: ReadonlyMap<number, number>,
  room: number,
  cap: number,
): Array<[number, number]> {
  const shares: Array<[number, number]> = [];
  for (const endpointId of waiting) {
    if (room <= 0) break;
    const share = Math.min(room, cap - (inFlight.get(endpointId) ?? 0));
    if (share <= 0) continue;
    shares.push([endpointId, share]);
    room -= share;
  }
  return shares;
}

export class DeliveryWorker {
  private readonly queue: PQueue;
  private readonly perEndpoint = new Map<number, number>();
  /**
   * Endpoints that may have due deliveries, in turn order: claiming walks it from the front and
   * sends an endpoint that used its whole share to the back, so a backlog at one endpoint cannot
   * keep the others waiting.
   */
  private readonly waiting = new Set<number>();
  private readonly interrupt = new AbortController();
  private inFlight = 0;
  private accepting = true;

  constructor(private readonly deps: WorkerDeps) {
    // requests in flight are bounded by the claims (see fill); the queue also holds attempts that
    // are only waiting for their record to commit, at most as many again
    this.queue = new PQueue({ concurrency: deps.concurrency * 2 });
  }

  /** Learns which endpoints have deliveries due: new events, retries coming due, another process's work. */
  async refresh(): Promise<void> {
    const now = toIso(this.deps.clock.now());
    for (const endpointId of await this.deps.storage.webhookDeliveries.endpointsWithDueDeliveries(now)) this.waiting.add(endpointId);
  }

  /** Starts attempts for due deliveries of waiting endpoints, within both concurrency bounds. */
  async fill(): Promise<void> {
    if (!this.accepting) return;
    const shares = this.shares();
    if (shares.length === 0) return;
    const now = this.deps.clock.now();
    const nowIso = toIso(now);
    const leaseUntil = toIso(new Date(now.getTime() + this.deps.timeoutMs + LEASE_MARGIN_MS));
    const claimed = await this.deps.storage.transaction(async (tx) => {
      const all: Claim[] = [];
      for (const [endpointId, share] of shares) {
        const due = await tx.webhookDeliveries.findDue(endpointId, nowIso, share);
        this.waiting.delete(endpointId);
        // a full share means more may be due: back of the line; fewer means drained for now
        if (due.length === share) this.waiting.add(endpointId);
        if (due.length === 0) continue;
        // Read with the claim, so each attempt uses the URL and secret current when it starts:
        // a rotation that has committed is never signed with the old secret afterwards.
        const endpoint = await tx.webhookEndpoints.findById(endpointId);
        for (const delivery of due) all.push({ delivery, endpoint });
      }
      const mine = new Set(
        await tx.webhookDeliveries.claim(
          all.map((c) => c.delivery.id),
          this.deps.instanceId,
          leaseUntil,
          nowIso,
        ),
      );
      return all.filter((c) => mine.has(c.delivery.id));
    });
    for (const claim of claimed) this.begin(claim);
  }

  private shares(): Array<[number, number]> {
    return shareOut(this.waiting, this.perEndpoint, this.deps.concurrency - this.inFlight, this.deps.concurrencyPerEndpoint);
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

  private begin({ delivery, endpoint }: Claim): void {
    this.inFlight++;
    this.perEndpoint.set(delivery.endpointId, (this.perEndpoint.get(delivery.endpointId) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inFlight--;
      const left = (this.perEndpoint.get(delivery.endpointId) ?? 1) - 1;
      if (left === 0) this.perEndpoint.delete(delivery.endpointId);
      else this.perEndpoint.set(delivery.endpointId, left);
      this.deps.onSettled();
    };
    void this.queue
      .add(() => this.attempt(delivery, endpoint, release))
      .catch((error: unknown) => this.deps.onError(error, 'webhook attempt could not be recorded; it will be retried'))
      .finally(release);
  }

  private async attempt(delivery: DueDelivery, endpoint: WebhookEndpointRecord | undefined, requestEnded: () => void): Promise<void> {
    const prepared = await prepareAttempt(delivery, endpoint, {
      allowPrivateTargets: this.deps.allowPrivateTargets,
      now: this.deps.clock.now(),
    });
    if (prepared.kind === 'cancel') return this.deps.recorder.cancel(delivery);
    let result: SendResult | 'interrupted';
    let headers: Record<string, string> | null = null;
    if (prepared.kind === 'refuse') {
      result = { status: null, retryAfter: null, responseBody: null, error: prepared.error, durationMs: 0 };
    } else {
      headers = sentHeaders(prepared.request);
      result = await this.deps.sender.send(prepared.request, this.interrupt.signal);
    }
    if (result === 'interrupted') return;
    requestEnded();
    await this.deps.recorder.recordAttempt(delivery, result, headers);
  }
}
