/**
 * The request pipeline as a list of named steps (app.ts composes them). A step looks at the
 * request, may answer it or throw a LecternError (the app renders every error in one place), or
 * hands it on with `next()`; what it learns it leaves on the exchange for the steps after it and
 * for the response's headers and access-log line.
 */
import type { PlainRequest } from '../plain.ts';
import type { Reply } from '../reply.ts';
import type { Authentication, RequestState } from '../request-state.ts';
import type { Hits } from './rate-limit-state.ts';

export interface Exchange {
  readonly request: PlainRequest;
  readonly requestId: string;
  /** a CORS preflight (OPTIONS from a page of another origin, naming the method it will send) */
  readonly preflight: boolean;
  /** the caller, resolved but not yet enforced (routes enforce it) */
  auth?: Authentication;
  /** the request's rate windows, when they were counted as its token was found (tokenResolver) */
  countedWindows?: Hits;
  /** the rate-limit headers every answer carries once the request was counted */
  rateHeaders: Record<string, string>;
  /** what a route handler sees, once the request's target is parsed */
  state?: RequestState;
  /** the pattern of the probe or route that answered, for metrics and the access log */
  route?: string;
}

export type Step = (exchange: Exchange, next: () => Promise<Reply>) => Promise<Reply>;

/** The steps in order, then the last one, which answers whatever reaches it. */
export function pipeline(steps: readonly Step[], last: (exchange: Exchange) => Promise<Reply>): (exchange: Exchange) => Promise<Reply> {
  const from = (index: number, exchange: Exchange): Promise<Reply> =>
    index === steps.length ? last(exchange) : steps[index]!(exchange, () => from(index + 1, exchange));
  return (exchange) => from(0, exchange);
}
