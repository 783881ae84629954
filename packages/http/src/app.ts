/**
 * The HTTP application: plain request in, plain response out. The request passes the steps of one
 * pipeline, listed in order in createApp (each in its own file in middleware/): the probes, the
 * refusal of searches while their queue is full, the caller (resolved, not yet enforced), the rate
 * limits, the request checks (400, 417, 403, 415, 413), the route's context, admission for
 * searches, then dispatch to the console, SCIM or a route, which enforces its scope and calls one
 * core service. What any step throws is rendered by one
 * mapper. Every response, refusals of requests that never reached the pipeline included, is
 * finished and logged by `respond`.
 */
import { isLecternError, LecternError, type Lectern } from '@lectern/core';
import { errorReply, type ErrorLogger } from './error-response.ts';
import { AdmissionGate, searchAdmission, searchShedding, type AdmissionLimits } from './middleware/admission.ts';
import { authentication } from './middleware/authenticate.ts';
import { RecentCallers } from './middleware/reads-beside-token.ts';
import { CorsPolicy, isPreflight } from './middleware/cors.ts';
import { dispatch } from './middleware/dispatch.ts';
import { pipeline, type Exchange } from './middleware/pipeline.ts';
import { probes } from './middleware/probes.ts';
import {
  FixedWindowRateLimiter,
  rateLimitHeaders,
  rateLimits,
  SharedWindowRateLimiter,
  tokenResolver,
  WINDOW_PREFIXES,
} from './middleware/rate-limit.ts';
import { requestChecks } from './middleware/request-checks.ts';
import { requestIdFrom } from './middleware/request-id.ts';
import { routeContext } from './middleware/route-context.ts';
import { headerValue, type PlainRequest, type PlainResponse, type Refusal } from './plain.ts';
import type { Reply } from './reply.ts';
import { parseTarget, requestTargetProblem } from './request-target.ts';
import { RouteTable } from './router.ts';
import { LecternMetrics } from './metrics/metrics.ts';
import { registerRoutes } from './routes/index.ts';
import type { ViewerFileSource } from './api-reference/reference-page.ts';
import { probeRoutes } from './routes/probes.ts';
import type { ConsoleFileSource } from './console/console-files.ts';
import { consolePages } from './routes/console.ts';
import { scimApi, scimErrorReply } from './routes/scim.ts';

/** The access-log line of one response. */
export interface AccessLogEntry {
  request_id: string;
  method: string | null;
  /** the route pattern matched, or null */
  route: string | null;
  status: number;
  duration_ms: number;
  /** why a request was refused before the pipeline (the parser's error code, `timeout`, …) */
  reason?: string;
}

export interface HttpLogger extends ErrorLogger {
  info(details: object, message?: string): void;
  /**
   * Writes the access line, as `info(entry, 'request')` would: a logger that writes a line per
   * request can build it cheaper than a generic object logger. Without it, `info` is called.
   */
  access?(entry: AccessLogEntry): void;
}

export interface AppOptions {
  /** requests per window per token (per client IP when unauthenticated); default 600 per 60 s */
  /**
   * requests per window per token (per client IP when unauthenticated); default 600 per 60 s.
   * `perUser` caps one user's tokens together in the same window (default ten times `limit`), so
   * minting more tokens does not multiply a user's allowance.
   */
  rateLimit?: { limit: number; windowSeconds: number; perUser?: number };
  /** list requests with `search` running at once, and waiting; default 1 and 8 (middleware/admission.ts) */
  searchAdmission?: AdmissionLimits;
  logger?: HttpLogger;
  /** origins whose pages may call the API from a browser (`*`: any); none by default */
  corsOrigins?: readonly string[];
  /** the API reference page's viewer files; from the installed swagger-ui-dist by default */
  viewerFiles?: ViewerFileSource;
  /** the web console's built files; without them `/console/` answers 404 saying how to build them */
  consoleFiles?: ConsoleFileSource;
}

export interface App {
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * The body limit of the streaming route (an upload) a request reaches, or undefined for every
   * other route, whose body the server reads whole (up to 1 MiB) before handling it.
   */
  streamLimit(method: string, url: string): number | undefined;
  /** Renders and logs a refusal like any other error response. */
  refuse(refusal: Refusal): PlainResponse;
}

/** The request's path, or '' when its target cannot be read (that refusal is the API's). */
function pathOf(url: string): string {
  try {
    return parseTarget(url).pathname;
  } catch {
    return '';
  }
}

export function createApp(lectern: Lectern, options: AppOptions = {}): App {
  const metrics = new LecternMetrics(lectern);
  const routes = registerRoutes(new RouteTable(), lectern, {
    metrics,
    ...(options.viewerFiles ? { viewerFiles: options.viewerFiles } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const consoleFiles = consolePages(options.consoleFiles ?? (() => undefined));
  const scim = scimApi(lectern);
  const rateLimit = options.rateLimit ?? { limit: 600, windowSeconds: 60 };
  // refusals (malformed requests, answered before they are parsed) are counted by this server alone
  const limiter = new FixedWindowRateLimiter(rateLimit);
  const sharedCounters = lectern.storage.sharedRateCounters();
  const requestLimiter = sharedCounters ? new SharedWindowRateLimiter(sharedCounters, rateLimit) : limiter;
  const perUser = { limit: rateLimit.perUser ?? rateLimit.limit * 10, windowSeconds: rateLimit.windowSeconds };
  const userLimiter = sharedCounters ? new SharedWindowRateLimiter(sharedCounters, perUser) : new FixedWindowRateLimiter(perUser);
  const searches = new AdmissionGate(options.searchAdmission ?? { concurrent: 1, queued: 8 });
  const cors = new CorsPolicy(options.corsOrigins);
  const logger = options.logger;
  const newRequestId = (headers: PlainRequest['headers'] = {}) =>
    requestIdFrom(headerValue(headers, 'x-request-id'), () => lectern.ids.prefixed('req_'));

  /** Adds the headers every response carries, serialises the body and writes the access-log line. */
  function respond(
    reply: Reply,
    request: { method: string | null; headers: PlainRequest['headers']; requestId: string; started: number },
    extra: { rateHeaders: Record<string, string>; route?: string | null; reason?: string; preflightAllow?: string },
  ): PlainResponse {
    const headers: Record<string, string> = {};
    if (reply.headers) for (const name in reply.headers) headers[name] = reply.headers[name]!;
    for (const name in extra.rateHeaders) headers[name] = extra.rateHeaders[name]!;
    if (cors.enabled) Object.assign(headers, cors.headers(headerValue(request.headers, 'origin'), extra.preflightAllow));
    headers['X-Request-Id'] = request.requestId;
    const json =
      reply.body !== undefined && reply.status !== 204 && reply.status !== 304 ? (reply.json ?? JSON.stringify(reply.body)) : null;
    const body = reply.content?.data ?? json;
    if (body !== null) {
      headers['Content-Type'] = reply.content?.type ?? 'application/json; charset=utf-8';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    if (reply.stream) headers['Content-Type'] = reply.stream.type;
    const elapsedMs = performance.now() - request.started;
    metrics.requests.observe(request.method, extra.route ?? null, reply.status, elapsedMs / 1000);
    if (logger) {
      const entry: AccessLogEntry = {
        request_id: request.requestId,
        method: request.method,
        route: extra.route ?? null,
        status: reply.status,
        duration_ms: Math.round(elapsedMs * 100) / 100,
      };
      if (extra.reason) entry.reason = extra.reason;
      if (logger.access) logger.access(entry);
      else logger.info(entry, 'request');
    }
    // HEAD answers with GET's status and headers, Content-Length included, and no body
    const streamed = reply.stream && request.method !== 'HEAD' ? { stream: reply.stream.chunks } : {};
    return { status: reply.status, headers, body: request.method === 'HEAD' ? null : body, ...streamed };
  }

  /** an export that failed after its first byte: the connection is cut, and the cause logged here */
  const onExportError = (error: unknown) => logger?.error({ err: error }, 'export failed after its first row');

  // the request pipeline, top to bottom (middleware/pipeline.ts); what a step throws is rendered below
  const answer = pipeline(
    [
      probes(probeRoutes(lectern)),
      searchShedding(searches),
      authentication(
        tokenResolver(lectern.tokens, requestLimiter, userLimiter, WINDOW_PREFIXES),
        sharedCounters ? new RecentCallers() : undefined,
      ),
      rateLimits(requestLimiter, userLimiter),
      requestChecks(cors),
      routeContext(),
      searchAdmission(searches),
    ],
    dispatch({ routes, consoleFiles, scim, clock: lectern.clock, onExportError }),
  );

  async function handle(request: PlainRequest): Promise<PlainResponse> {
    const started = performance.now();
    const requestId = newRequestId(request.headers);
    const preflight = isPreflight(
      request.method,
      headerValue(request.headers, 'origin'),
      headerValue(request.headers, 'access-control-request-method'),
    );
    const exchange: Exchange = { request, requestId, preflight, rateHeaders: {} };
    let reply: Reply;
    try {
      reply = await answer(exchange);
    } catch (error) {
      // SCIM clients read SCIM's error schema, whichever step refused the request (401, 429, 413…)
      reply = isLecternError(error) && scim.serves(pathOf(request.url)) ? scimErrorReply(error) : errorReply(error, requestId, logger);
    }
    const extra: Parameters<typeof respond>[2] = {
      rateHeaders: exchange.rateHeaders,
      route: exchange.route ?? exchange.state?.route ?? null,
    };
    if (preflight && reply.status === 204 && reply.headers?.Allow) extra.preflightAllow = reply.headers.Allow;
    return respond(reply, { method: request.method, headers: request.headers, requestId, started }, extra);
  }

  function refuse(refusal: Refusal): PlainResponse {
    const started = performance.now();
    const headers = refusal.headers ?? {};
    const requestId = newRequestId(headers);
    const rate = limiter.hit(`ip:${refusal.remoteAddress}`);
    const reply = errorReply(new LecternError(refusal.code, refusal.message), requestId, logger);
    return respond(
      reply,
      { method: refusal.method ?? null, headers, requestId, started },
      { rateHeaders: rateLimitHeaders(rate), reason: refusal.reason },
    );
  }

  function streamLimit(method: string, url: string): number | undefined {
    if (method !== 'POST' || requestTargetProblem(url)) return undefined;
    try {
      return routes.streamLimit(method, parseTarget(url).pathname);
    } catch {
      return undefined;
    }
  }

  return { handle, refuse, streamLimit };
}
