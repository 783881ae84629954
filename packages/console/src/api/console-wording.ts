/**
 * Some of the API's messages speak to API callers ("send accept_waitlist: true"); a form says the
 * same in its own terms. The code and the rest of the envelope stay as the server sent them.
 */
import { ApiError } from './client.ts';

export async function inConsoleWords<T>(call: Promise<T>, messages: Readonly<Record<string, string>>): Promise<T> {
  try {
    return await call;
  } catch (caught) {
    const message = caught instanceof ApiError && caught.envelope ? messages[caught.envelope.code] : undefined;
    if (message === undefined || !(caught instanceof ApiError)) throw caught;
    throw new ApiError(caught.status, { ...caught.envelope!, message }, caught.retryAfter);
  }
}
