/**
 * The HTTP application: plain request in, plain response out. The pipeline, in order: request id,
 * authentication (resolved, not yet enforced), rate limit, routing (404/405), the route, which
 * enforces authentication and calls one core service; errors render through one mapper.
 */
import { badRequest, LecternError, type Actor, type Lectern, type RequestContext } from '@lectern/core';
import { errorBody, errorReply, type ErrorLogger } from './error-response.ts';
import { authenticate, type Authentication } from './middleware/authenticate.ts';
import { FixedWindowRateLimiter, rateLimited, rateLimitHeaders } from './middleware/rate-limit.ts';
import { requestIdFrom } from './middleware/request-id.ts';
import { headerValue, MAX_BODY_BYTES, type PlainRequest, type PlainResponse } from './plain.ts';
import type { Reply } from './reply.ts';
import { RouteTable, type RouteContext } from './router.ts';
import { registerRoutes } from './routes/index.ts';

export interface HttpLogger extends ErrorLogger {
  info(details: object, message?: string): void;
}

export interface AppOptions {
  /** requests per window per token (per client IP when unauthenticated); default 600 per 60 s */
  rateLimit?: { limit: number; windowSeconds: number };
  logger?: HttpLogger;
}

export interface App {
  handle(request: PlainRequest): Promise<PlainResponse>;
}

class RequestState implements RouteContext {
  params: Record<string, string> = {};
  route?: string;
  private context?: RequestContext;

  constructor(
    private readonly auth: Authentication,
    private readonly requestId: string,
    readonly query: URLSearchParams,
    private readonly request: PlainRequest,
  ) {}

  get ctx(): RequestContext {
    if (this.auth.error) throw this.auth.error;
    return (this.context ??= { actor: this.auth.actor, requestId: this.requestId });
  }

  header(name: string): string | undefined {
    return headerValue(this.request.headers, name);
  }

  body<Unvalidated>(): Unvalidated {
    if (this.request.bodyTooLarge) {
      throw new LecternError('payload_too_large', `The request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
    }
    const raw = this.request.body;
    if (!raw || raw.length === 0) return {} as Unvalidated;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('The request body must be a JSON object.');
    }
    return parsed as Unvalidated;
  }
}

const rateKey = (actor: Actor | undefined, request: PlainRequest) =>
  actor?.kind === 'user' && actor.tokenId !== undefined ? `token:${actor.tokenId}` : `ip:${request.remoteAddress}`;

export function createApp(lectern: Lectern, options: AppOptions = {}): App {
  const routes = registerRoutes(new RouteTable(), lectern);
  const limiter = new FixedWindowRateLimiter(options.rateLimit ?? { limit: 600, windowSeconds: 60 });
  const logger = options.logger;

  async function handle(request: PlainRequest): Promise<PlainResponse> {
    const started = performance.now();
    const requestId = requestIdFrom(headerValue(request.headers, 'x-request-id'), () => lectern.ids.prefixed('req_'));
    let reply: Reply;
    let state: RequestState | undefined;
    let rateHeaders: Record<string, string> = {};
    try {
      const auth = await authenticate(lectern.tokens, headerValue(request.headers, 'authorization'));
      const rate = limiter.hit(rateKey(auth.actor, request));
      rateHeaders = rateLimitHeaders(rate);
      if (!rate.allowed) throw rateLimited(rate);

      const url = new URL(request.url, 'http://lectern.invalid');
      state = new RequestState(auth, requestId, url.searchParams, request);
      const matched = await routes.dispatch(request.method, url.href, state);
      reply = matched ?? {
        status: 404,
        body: errorBody('not_found', `No route matches ${request.method} ${url.pathname}.`, requestId),
      };
    } catch (error) {
      reply = errorReply(error, requestId, logger);
    }

    const headers: Record<string, string> = { ...reply.headers, ...rateHeaders, 'X-Request-Id': requestId };
    const hasBody = reply.body !== undefined && reply.status !== 204 && reply.status !== 304;
    if (hasBody) headers['Content-Type'] = 'application/json; charset=utf-8';
    logger?.info(
      {
        request_id: requestId,
        method: request.method,
        route: state?.route ?? null,
        status: reply.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
      },
      'request',
    );
    return { status: reply.status, headers, body: hasBody ? JSON.stringify(reply.body) : null };
  }

  return { handle };
}
