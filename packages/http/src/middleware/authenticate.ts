import { LecternError, type Actor, type TokenService } from '@lectern/core';

export type Authentication = { actor: Actor; error?: undefined } | { actor?: undefined; error: LecternError };

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

/**
 * Resolves the Authorization header without failing the request yet: unknown routes still answer
 * 404, and the rate limiter needs to know whose request this is either way.
 */
export async function authenticate(tokens: TokenService, header: string | undefined): Promise<Authentication> {
  if (header === undefined || header.trim() === '') {
    return {
      error: new LecternError('unauthenticated', 'Authentication required: send the header Authorization: Bearer <API token>.'),
    };
  }
  const match = BEARER.exec(header);
  if (!match) {
    return { error: new LecternError('unauthenticated', "Malformed Authorization header: expected 'Bearer <API token>'.") };
  }
  try {
    return { actor: await tokens.authenticate(match[1]!) };
  } catch (error) {
    if (error instanceof LecternError) return { error };
    throw error;
  }
}
