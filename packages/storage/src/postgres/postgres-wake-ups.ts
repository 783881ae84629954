/**
 * Wake-ups across the processes sharing a PostgreSQL database (core's ports/wake-ups.ts): a
 * writer announces its work with `pg_notify` inside its transaction, which PostgreSQL delivers
 * only when that transaction commits (and never when it rolls back), to every session listening.
 * Each process listens on one connection of its own, outside the pool.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type pg from 'pg';
import type { WakeTopic, WakeUps } from '@lectern/core/ports';
import { dialectOf } from '../shared/dialect.ts';

const CHANNEL = 'lectern_wake';
/** After the listening connection is lost, the engines' slow poll covers the gap until it is back. */
const RECONNECT_MS = 1000;

/**
 * The announcement of `topic` as a select-list expression, to add to a statement the writer runs
 * anyway (no round trip of its own); nothing on SQLite, whose processes have no wake-ups.
 */
export function announce(db: Kysely<unknown>, topic: WakeTopic): RawBuilder<unknown> | undefined {
  return dialectOf(db).commitNotifications ? sql`pg_notify(${sql.lit(CHANNEL)}, ${sql.lit(topic)})` : undefined;
}

export class PostgresWakeUps implements WakeUps {
  private readonly listeners = new Map<WakeTopic, Set<() => void>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  /** `connect` opens a new connection configured as the pool's are. */
  constructor(private readonly connect: () => Promise<pg.Client>) {}

  listen(topic: WakeTopic, onWake: () => void): () => void {
    let topicListeners = this.listeners.get(topic);
    if (!topicListeners) this.listeners.set(topic, (topicListeners = new Set()));
    topicListeners.add(onWake);
    void this.ensureListening();
    return () => topicListeners.delete(onWake);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private ensureListening(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    return (this.connecting ??= this.open().finally(() => (this.connecting = undefined)));
  }

  private async open(): Promise<void> {
    let client: pg.Client | undefined;
    try {
      client = await this.connect();
      client.on('notification', (message) => {
        for (const onWake of this.listeners.get(message.payload as WakeTopic) ?? []) onWake();
      });
      client.on('error', () => this.lost(client!));
      client.on('end', () => this.lost(client!));
      await client.query(`listen ${CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      // work announced while no connection listened is found now rather than at the next poll
      for (const topicListeners of this.listeners.values()) for (const onWake of topicListeners) onWake();
    } catch {
      await client?.end().catch(() => undefined);
      this.scheduleRetry();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.ensureListening();
    }, RECONNECT_MS).unref();
  }
}
