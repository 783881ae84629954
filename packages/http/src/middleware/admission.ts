import { LecternError } from '@lectern/core';
import type { Step } from './pipeline.ts';

export interface AdmissionLimits {
  /** requests of the kind running at once */
  concurrent: number;
  /** requests of the kind waiting for a turn; one more is refused with 503 */
  queued: number;
}

/**
 * Admission for requests whose cost grows with the table rather than the page (a list with
 * `search`). Without it fifty of them queue on the event loop, or fill PostgreSQL's pool, and every
 * other request waits behind them; with it the rest are refused at once with a retry hint. Every
 * turn starts from `setImmediate`, after the requests that have arrived meanwhile: on SQLite, whose
 * queries hold the event loop, that is what lets a plain GET in between two searches.
 */
export class AdmissionGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: AdmissionLimits) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 1) throw new Error(`admission ${name} must be a whole number of at least 1`);
    }
  }

  /** Waits for a turn and returns its release, or throws 503 `service_unavailable` when the queue is full. */
  async enter(): Promise<() => void> {
    if (this.running < this.limits.concurrent) {
      this.running++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else if (this.waiting.length < this.limits.queued) {
      // the turn passes straight from the releasing request: `running` is not lowered in between
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      throw new LecternError('service_unavailable', 'Too many searches are running; retry in a moment.', {
        headers: { 'Retry-After': '1' },
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) setImmediate(next);
      else this.running--;
    };
  }
}

/** The step that makes a read with `search`, whose cost grows with the table, wait for a turn at `gate`. */
export const searchAdmission =
  (gate: AdmissionGate): Step =>
  async (exchange, next) => {
    const { request, state } = exchange;
    const costly = (request.method === 'GET' || request.method === 'HEAD') && Boolean(state?.query.get('search'));
    if (!costly) return next();
    const release = await gate.enter();
    try {
      return await next();
    } finally {
      release();
    }
  };
