/**
 * The delivery engine: dispatcher and worker, driven by wake-ups and a short poll. Wake-ups come
 * from this process's own event recording and from finished attempts; the poll covers events
 * written by other processes (the CLI) and retries coming due. Where the storage announces other
 * processes' events as they commit (PostgreSQL), those wake it too, and the poll slows down to
 * what only time brings (retries coming due, leases running out).
 */
import type { LecternConfig } from '../config.ts';
import type { Storage } from '../ports/storage.ts';
import { nowIso, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/ids.ts';
import { DeliveryDispatcher } from './delivery-dispatcher.ts';
import type { DeliveryOutcomeCounts } from './delivery-counts.ts';
import { DeliveryRecorder } from './delivery-recorder.ts';
import { DeliverySender } from './delivery-sender.ts';
import { DeliveryWorker } from './delivery-worker.ts';
import type { EventRecorder } from './event-recorder.ts';

export interface EngineLogger {
  warn(details: object, message?: string): void;
}

export interface EngineDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** records webhook events in the transaction of the change (the transactional outbox) */
  outbox: EventRecorder;
  config: LecternConfig['webhooks'];
  /** this process, as the holder of delivery leases */
  instanceId: string;
  logger?: EngineLogger;
  /** where committed attempts are counted by outcome */
  outcomes?: DeliveryOutcomeCounts;
}

/** The poll's interval at least, where other processes' events wake the engine without it. */
export const ANNOUNCED_POLL_MS = 500;

/** A failing database would otherwise log at every poll. */
const ERROR_REPORT_INTERVAL_MS = 10_000;

export class DeliveryEngine {
  private readonly dispatcher: DeliveryDispatcher;
  private readonly recorder: DeliveryRecorder;
  private readonly sender: DeliverySender;
  private readonly worker: DeliveryWorker;
  private poll: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private ready = false;
  private stopped = false;
  private wakeScheduled = false;
  private again = false;
  /** whether the next pass must look for new events and due retries (not after a mere completion) */
  private refreshNeeded = true;
  private pumping: Promise<void> | null = null;
  private lastReportAt = 0;

  constructor(private readonly deps: EngineDeps) {
    const { config } = deps;
    const timeoutMs = config.timeoutSeconds * 1000;
    this.dispatcher = new DeliveryDispatcher(deps.storage, deps.clock);
    this.recorder = new DeliveryRecorder({
      storage: deps.storage,
      clock: deps.clock,
      ids: deps.ids,
      schedule: config.retryScheduleSeconds,
      disableAfterMs: config.disableAfterSeconds * 1000,
      ...(deps.outcomes ? { outcomes: deps.outcomes } : {}),
    });
    this.sender = new DeliverySender({ timeoutMs, allowPrivateTargets: config.allowPrivateTargets });
    this.worker = new DeliveryWorker({
      storage: deps.storage,
      clock: deps.clock,
      sender: this.sender,
      recorder: this.recorder,
      concurrency: config.concurrency,
      concurrencyPerEndpoint: config.concurrencyPerEndpoint,
      timeoutMs,
      allowPrivateTargets: config.allowPrivateTargets,
      instanceId: deps.instanceId,
      onSettled: () => this.wake(),
      onError: (error, message) => this.report(error, message),
    });
  }

  /** Takes back what this process (its instance id) left in flight when it stopped, then delivers until stopped. */
  start(): void {
    if (this.unsubscribe || this.stopped) return;
    const recorded = this.deps.outbox.onRecorded(() => this.wake(true));
    const wakeUps = this.deps.storage.wakeUps?.() ?? null;
    const announced = wakeUps?.listen('outbox', () => this.wake(true));
    this.unsubscribe = () => {
      recorded();
      announced?.();
    };
    const pollMs = wakeUps ? Math.max(this.deps.config.pollIntervalMs, ANNOUNCED_POLL_MS) : this.deps.config.pollIntervalMs;
    void this.deps.storage.webhookDeliveries
      .releaseLeases(this.deps.instanceId, nowIso(this.deps.clock))
      .catch((error: unknown) => this.report(error, 'could not release webhook delivery leases; they expire on their own'))
      .finally(() => {
        if (this.stopped) return;
        this.ready = true;
        this.poll = setInterval(() => this.wake(true), pollMs).unref();
        this.wake(true);
      });
  }

  /**
   * Runs a pass soon; calls made while one is pending or running coalesce into one more pass.
   * `refresh` when work may have appeared that this process did not claim itself.
   */
  wake(refresh = false): void {
    if (refresh) this.refreshNeeded = true;
    if (!this.ready || this.stopped || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      // a wake-up scheduled just before stop() must not reach a closing database
      if (this.stopped) return;
      if (this.pumping) this.again = true;
      else this.pumping = this.pump().finally(() => (this.pumping = null));
    });
  }

  /** Stops taking work and waits, at most the configured grace, for attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    this.unsubscribe?.();
    await this.pumping;
    await this.worker.stop(this.deps.config.shutdownGraceSeconds * 1000);
    await this.recorder.flush();
    await this.sender.close();
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        // New work only comes from recorded events and from time passing; a finished attempt
        // just frees a slot, so then claiming is all there is to do.
        if (this.refreshNeeded) {
          this.refreshNeeded = false;
          await this.dispatcher.dispatch();
          await this.worker.refresh();
        }
        await this.worker.fill();
      } while (this.again && !this.stopped);
    } catch (error) {
      this.report(error, 'webhook delivery pass failed; retrying at the next poll');
    }
  }

  private report(error: unknown, message: string): void {
    const now = Date.now();
    if (now - this.lastReportAt < ERROR_REPORT_INTERVAL_MS) return;
    this.lastReportAt = now;
    this.deps.logger?.warn({ err: error }, message);
  }
}
