/**
 * The transactional outbox: every state change records the webhook events it causes through
 * this one recorder, on the transaction's own stores, so the change and its events commit together.
 */
import type { Stores } from '../ports/storage.ts';
import { nowIso, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/ids.ts';
import { API_VERSION, type WebhookEvent } from './webhook-event.ts';

export class EventRecorder {
  private readonly listeners = new Set<() => void>();
  /** what else a change owes beside its webhook events (its email notifications), in its transaction */
  private observer: ((tx: Stores, events: readonly WebhookEvent[]) => Promise<void>) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * `listener` runs whenever events are recorded, so the delivery engine can wake at once instead of
   * waiting for its next poll. It runs before the transaction commits: it must only schedule work.
   * Returns the unsubscribe function.
   */
  onRecorded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `observer` runs in the transaction of every recording, after the events are appended. */
  observe(observer: (tx: Stores, events: readonly WebhookEvent[]) => Promise<void>): void {
    this.observer = observer;
  }

  build<T>(type: string, object: T): WebhookEvent<T> {
    return { id: this.ids.prefixed('msg_'), type, api_version: API_VERSION, created_at: nowIso(this.clock), data: { object } };
  }

  /** Records events in the caller's transaction; `tx` must be the stores handed to `transaction()`. */
  async record(tx: Stores, ...events: Array<{ type: string; object: unknown }>): Promise<WebhookEvent[]> {
    const built = events.map(({ type, object }) => this.build(type, object));
    if (built.length === 1) await tx.outbox.append(built[0]!);
    else if (built.length > 1) await tx.outbox.appendMany(built);
    if (this.observer) await this.observer(tx, built);
    for (const listener of this.listeners) listener();
    return built;
  }
}
