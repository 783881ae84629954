import { LecternError, type Actor, type TokenService } from '@lectern/core';

export type Authentication = { actor: Actor; error?: undefined } | { actor?: undefined; error: LecternError };

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
  // chained rather than awaited: one turn less on every authenticated request
  return tokens.authenticate(match[1]!).then(
    (actor) => ({ actor }),
    (error: unknown) => {
      if (error instanceof LecternError) return { error };
      throw error;
    },
  );
}
