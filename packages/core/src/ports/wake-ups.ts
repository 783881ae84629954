/**
 * Work other processes sharing the database made, announced when it commits: new outbox events
 * (webhook deliveries to fan out) and jobs to take (bulk jobs, imports). A storage that has them
 * (PostgreSQL's LISTEN/NOTIFY) lets the engines wait for a wake-up instead of asking the database
 * every few milliseconds; they keep a slow poll for what no one announces (retries coming due,
 * leases running out, a lost listening connection).
 */
export type WakeTopic = 'outbox' | 'jobs';

export interface WakeUps {
  /** Calls `onWake` whenever `topic` is announced, by any process; answers a function that stops it. */
  listen(topic: WakeTopic, onWake: () => void): () => void;
}
