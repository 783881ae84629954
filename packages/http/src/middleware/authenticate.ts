import { LecternError, whenSettled, type Actor } from '@lectern/core';
import { headerValue } from '../plain.ts';
import type { Step } from './pipeline.ts';
import type { Hits } from './rate-limit-state.ts';
import { besideToken, type RecentCallers } from './reads-beside-token.ts';

/** A token's actor, and its rate windows when they were counted as it was found (tokenResolver). */
export type Resolved = { actor: Actor; hits?: Hits };
type Resolution = (Resolved & { error?: undefined }) | { actor?: undefined; hits?: undefined; error: LecternError };

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

/**
 * Resolves the Authorization header without failing the request yet: unknown routes still answer
 * 404, and the rate limiter needs to know whose request this is either way. A missing or malformed
 * header is answered at once, without a promise.
 */
export function authenticate(
  resolve: (token: string) => Resolved | Promise<Resolved>,
  header: string | undefined,
): Promise<Resolution> | Resolution {
  if (header === undefined || header.trim() === '') {
    return {
      error: new LecternError('unauthenticated', 'Authentication required: send the header Authorization: Bearer <API token>.'),
    };
  }
  const match = BEARER.exec(header);
  if (!match) {
    return { error: new LecternError('unauthenticated', "Malformed Authorization header: expected 'Bearer <API token>'.") };
  }
  const refused = (error: unknown): Resolution => {
    if (error instanceof LecternError) return { error };
    throw error;
  };
  // answered at once when the token store answers at once (SQLite): no turn of the event loop
  try {
    return whenSettled(resolve(match[1]!), (resolved): Resolution => resolved, refused);
  } catch (error) {
    return refused(error);
  }
}

/**
 * The step that resolves the caller for the steps after it (unknown routes still answer 404).
 * With `recent` (a database shared by several servers, where finding the token is a round trip),
 * a read by a recently accepted caller runs beside its token statement (reads-beside-token.ts).
 */
export const authentication =
  (resolve: (token: string) => Resolved | Promise<Resolved>, recent?: RecentCallers): Step =>
  async (exchange, next) => {
    const header = headerValue(exchange.request.headers, 'authorization');
    const settle = (resolution: Resolution) => {
      exchange.auth = resolution.error ? { error: resolution.error } : { actor: resolution.actor };
      if (resolution.hits) exchange.countedWindows = resolution.hits;
    };
    const counting = (resolution: Resolution) => {
      recent?.learn(header, resolution);
      return resolution;
    };
    const guess = recent?.guess(exchange.request.method, header);
    if (guess) return besideToken(exchange, next, guess, Promise.resolve(authenticate(resolve, header)).then(counting), settle);
    settle(counting(await authenticate(resolve, header)));
    return next();
  };
