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

  /** Whether a request would be refused now: every turn taken and the queue full. */
  full(): boolean {
    return this.running >= this.limits.concurrent && this.waiting.length >= this.limits.queued;
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
      throw tooManySearches();
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

const tooManySearches = () =>
  new LecternError('service_unavailable', 'Too many searches are running; retry in a moment.', { headers: { 'Retry-After': '1' } });

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The step, first in the pipeline, that refuses a search at once while `gate` is full, before its
 * token is looked up: fifty clients searching in a loop are refused thousands of times a second,
 * and on PostgreSQL each lookup (with the rate windows it counts) is a statement, which took the
 * database's time from the requests it could serve. Only refusals come early: a search is let in
 * the queue after its token is checked, so no client without one can hold a place in it.
 */
export const searchShedding =
  (gate: AdmissionGate): Step =>
  async (exchange, next) => {
    const { method, url } = exchange.request;
    if (!gate.full() || !isRead(method)) return next();
    const start = url.indexOf('?');
    if (start !== -1 && new URLSearchParams(url.slice(start + 1)).get('search')) throw tooManySearches();
    return next();
  };

/** The step that makes a read with `search`, whose cost grows with the table, wait for a turn at `gate`. */
export const searchAdmission =
  (gate: AdmissionGate): Step =>
  async (exchange, next) => {
    const { request, state } = exchange;
    const costly = isRead(request.method) && Boolean(state?.query.get('search'));
    if (!costly) return next();
    const release = await gate.enter();
    try {
      return await next();
    } finally {
      release();
    }
  };
