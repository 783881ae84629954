/**
 * The one HTTP client of the console: openapi-fetch typed by schema.d.ts (generated from the
 * server's own OpenAPI document by build.mjs), with a 429 waited out as its Retry-After asks. The
 * session adds its bearer token (session/token.ts), so this folder needs nothing from session/.
 */
import createClient from 'openapi-fetch';
import { signal } from '@preact/signals';
import type { components, paths } from './schema.d.ts';

/** Seconds the console is waiting before retrying a rate-limited request, or 0; shown in the header. */
export const rateLimitWait = signal(0);

const MAX_RATE_LIMIT_RETRIES = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchWaitingOutRateLimits(request: Request): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(request.clone());
    if (response.status !== 429 || attempt >= MAX_RATE_LIMIT_RETRIES) return response;
    const seconds = Math.min(Math.max(Number(response.headers.get('Retry-After')) || 1, 1), 120);
    rateLimitWait.value = seconds;
    await sleep(seconds * 1000);
    rateLimitWait.value = 0;
  }
}

export const api = createClient<paths>({
  baseUrl: location.origin,
  fetch: fetchWaitingOutRateLimits,
  // the document's list parameters are `style: form, explode: false`: several values comma-separated
  querySerializer: { array: { style: 'form', explode: false } },
});

/**
 * The body of every error answer, as the OpenAPI document declares it (its `code` is the server's
 * list of codes); `request_id` may be absent from an error the console makes itself.
 */
export type ErrorEnvelope = Omit<components['schemas']['Error']['error'], 'request_id'> & { request_id?: string };

/** A failed call: `status` 0 when the network failed, so callers can offer a retry. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | null,
    readonly retryAfter: number | null = null,
  ) {
    super(envelope?.message ?? (status === 0 ? 'The server could not be reached.' : `The server answered ${status}.`));
  }
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }
  get fieldErrors(): Record<string, string[]> {
    return this.envelope?.field_errors ?? {};
  }
  get nonFieldErrors(): string[] {
    return this.envelope?.non_field_errors ?? [];
  }
}

export interface Outcome<T> {
  data?: T;
  /** the error body every route declares; text when something in between (a proxy) answered instead */
  error?: { error?: ErrorEnvelope } | string;
  response: Response;
}

/** The data of a successful call, or an ApiError carrying the envelope. */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch {
    throw new ApiError(0, null);
  }
  const { response } = outcome;
  if (!response.ok) {
    const body = outcome.error;
    // JSON.parse may also have made null of a body: only an object carries an envelope
    const envelope = typeof body === 'object' && body !== null ? (body.error ?? null) : null;
    throw new ApiError(response.status, envelope, Number(response.headers.get('Retry-After')) || null);
  }
  return outcome.data as T;
}
