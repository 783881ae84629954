import { forbidden } from '@lectern/core';

/** Request headers a browser may send cross-origin beyond the safelisted ones. */
const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, X-Request-Id';
/** Response headers scripts may read beyond the safelisted ones (Content-Type, Last-Modified…). */
const EXPOSED_HEADERS = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, ETag, Retry-After, Location, Allow';
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** A CORS preflight: OPTIONS naming the method the browser wants to send next. */
export const isPreflight = (method: string, origin: string | undefined, requestedMethod: string | undefined) =>
  method === 'OPTIONS' && origin !== undefined && requestedMethod !== undefined;

/**
 * Cross-origin access from browsers, as the Fetch standard's CORS protocol defines it. With no
 * origins listed it is off: responses carry no `Access-Control-*` header, so browsers keep them
 * from scripts of other origins. A request from an origin not listed is still served (same-origin
 * pages behind a proxy send `Origin` too, and every route needs a bearer token, which no browser
 * sends cross-origin without a successful preflight); only a preflight from such an origin is
 * answered 403, to say why. `*` lists every origin. Tokens travel in `Authorization`, never in
 * cookies, so credentials mode is not offered.
 */
export class CorsPolicy {
  private readonly anyOrigin: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[] = []) {
    this.anyOrigin = origins.includes('*');
    this.origins = new Set(origins);
  }

  get enabled(): boolean {
    return this.anyOrigin || this.origins.size > 0;
  }

  allows(origin: string): boolean {
    return this.anyOrigin || this.origins.has(origin);
  }

  /** Throws the 403 for a preflight this policy refuses. */
  checkPreflight(origin: string): void {
    if (this.allows(origin)) return;
    throw forbidden(
      this.enabled
        ? `Cross-origin requests from ${origin} are not allowed.`
        : 'Cross-origin requests are not enabled on this server (the operator lists allowed origins with --cors-origins).',
    );
  }

  /** The CORS headers of a response; `preflightAllow` is the `Allow` of a preflighted path. */
  headers(origin: string | undefined, preflightAllow?: string): Record<string, string> {
    if (!this.enabled) return {};
    // the answer depends on Origin whenever origins are listed: caches must key on it
    if (origin === undefined || !this.allows(origin)) return { Vary: 'Origin' };
    const headers: Record<string, string> = { Vary: 'Origin', 'Access-Control-Allow-Origin': this.anyOrigin ? '*' : origin };
    if (preflightAllow === undefined) {
      headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
    } else {
      headers['Access-Control-Allow-Methods'] = preflightAllow;
      headers['Access-Control-Allow-Headers'] = ALLOWED_REQUEST_HEADERS;
      headers['Access-Control-Max-Age'] = PREFLIGHT_MAX_AGE_SECONDS;
    }
    return headers;
  }
}
