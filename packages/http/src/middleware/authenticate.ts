import { LecternError, whenSettled, type TokenService } from '@lectern/core';
import { headerValue } from '../plain.ts';
import type { Authentication } from '../request-state.ts';
import type { Step } from './pipeline.ts';

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

/**
 * Resolves the Authorization header without failing the request yet: unknown routes still answer
 * 404, and the rate limiter needs to know whose request this is either way. A missing or malformed
 * header is answered at once, without a promise.
 */
export function authenticate(tokens: TokenService, header: string | undefined): Promise<Authentication> | Authentication {
  if (header === undefined || header.trim() === '') {
    return {
      error: new LecternError('unauthenticated', 'Authentication required: send the header Authorization: Bearer <API token>.'),
    };
  }
  const match = BEARER.exec(header);
  if (!match) {
    return { error: new LecternError('unauthenticated', "Malformed Authorization header: expected 'Bearer <API token>'.") };
  }
  const refused = (error: unknown): Authentication => {
    if (error instanceof LecternError) return { error };
    throw error;
  };
  // answered at once when the token store answers at once (SQLite): no turn of the event loop
  try {
    const actor = tokens.actorOf(match[1]!);
    return whenSettled(actor, (resolved): Authentication => ({ actor: resolved }), refused);
  } catch (error) {
    return refused(error);
  }
}

/** The step that resolves the caller for the steps after it (unknown routes still answer 404). */
export const authentication =
  (tokens: TokenService): Step =>
  async (exchange, next) => {
    exchange.auth = await authenticate(tokens, headerValue(exchange.request.headers, 'authorization'));
    return next();
  };
