/**
 * The HTTP application: plain request in, plain response out. The pipeline, in order: request id,
 * authentication (resolved, not yet enforced), rate limit, request target and `Expect` (400/417),
 * CORS preflight, body size (413), routing (404/405, OPTIONS), the route, which enforces
 * authentication and calls one core service; errors render through one mapper. Every response,
 * refusals of requests that never reached the pipeline included, is finished and logged by
 * `respond`.
 */
import { badRequest, isLecternError, LecternError, type Actor, type Lectern, type RequestContext } from '@lectern/core';
import { errorBody, errorReply, type ErrorLogger } from './error-response.ts';
import { AdmissionGate, type AdmissionLimits } from './middleware/admission.ts';
import { authenticate, type Authentication } from './middleware/authenticate.ts';
import { CorsPolicy, isPreflight } from './middleware/cors.ts';
import {
  FixedWindowRateLimiter,
  hitWindows,
  rateLimited,
  rateLimitHeaders,
  SharedWindowRateLimiter,
  tokenResolver,
  type WindowPrefixes,
} from './middleware/rate-limit.ts';
import { requestIdFrom } from './middleware/request-id.ts';
import { headerValue, MAX_BODY_BYTES, type PlainRequest, type PlainResponse, type Refusal } from './plain.ts';
import { conditionalRead, type Reply } from './reply.ts';
import { exportFormatOf, exportList } from './export/list-export.ts';
import { contentEncodingProblem } from './framing.ts';
import { parseTarget, requestTargetProblem } from './request-target.ts';
import type { OperationSpec } from './operation-spec.ts';
import { RouteTable, type RouteContext } from './router.ts';
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

class RequestState implements RouteContext {
  params: Record<string, string> = {};
  route?: string;
  spec?: OperationSpec;
  path?: string;
  private context?: RequestContext;
  private parameters?: URLSearchParams;

  constructor(
    private readonly auth: Authentication,
    readonly requestId: string,
    private readonly parseQuery: () => URLSearchParams,
    private readonly request: PlainRequest,
  ) {}

  get query(): URLSearchParams {
    return (this.parameters ??= this.parseQuery());
  }

  get ctx(): RequestContext {
    if (this.auth.error) throw this.auth.error;
    return (this.context ??= { actor: this.auth.actor, requestId: this.requestId });
  }

  header(name: string): string | undefined {
    return headerValue(this.request.headers, name);
  }

  get preconditions(): { ifMatch: string | undefined } {
    return { ifMatch: this.header('if-match') };
  }

  async *bodyStream(maxBytes: number): AsyncIterable<Buffer> {
    const tooLarge = () => new LecternError('payload_too_large', `The request body exceeds the limit of ${maxBytes} bytes.`);
    if (Number(this.header('content-length')) > maxBytes) throw tooLarge();
    let size = 0;
    for await (const chunk of this.request.bodyStream ?? (this.request.body ? [this.request.body] : [])) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      yield chunk;
    }
  }

  body<Unvalidated>(): Unvalidated {
    const raw = this.request.body;
    if (!raw || raw.length === 0) return {} as Unvalidated;
    let text: string;
    try {
      text = strictUtf8.decode(raw);
    } catch {
      // decoding leniently would store U+FFFD in place of the bytes sent: the data silently altered
      throw badRequest('The request body is not valid UTF-8.');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('The request body must be a JSON object.');
    }
    if (nestingDepthExceeds(parsed, MAX_BODY_DEPTH)) {
      throw badRequest(`The request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep.`);
    }
    return parsed as Unvalidated;
  }
}

/** JSON is UTF-8 (RFC 8259 §8.1); a byte-order mark is kept, so JSON.parse refuses it as before. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** No request the API describes comes close; a deeper body is an attack on whatever walks it. */
export const MAX_BODY_DEPTH = 64;

/** Whether `value` nests deeper than `limit`, found with a stack: the walk itself must not recurse. */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) pending.push({ value: item, depth: depth + 1 });
  }
  return false;
}

/** a token's own rate window, and the one all its user's tokens share */
const WINDOWS: WindowPrefixes = { token: 'token:', user: 'user:' };
const rateKey = (actor: Actor | undefined, request: PlainRequest) =>
  actor?.kind === 'user' && actor.tokenId !== undefined ? `${WINDOWS.token}${actor.tokenId}` : `ip:${request.remoteAddress}`;

/** The request's path, or '' when its target cannot be read (that refusal is the API's). */
function pathOf(url: string): string {
  try {
    return parseTarget(url).pathname;
  } catch {
    return '';
  }
}

/** Only `Expect: 100-continue` is understood (RFC 9110 §10.1.1); the server answers it before the body. */
const expectationProblem = (expect: string | undefined) =>
  expect !== undefined && expect.trim().toLowerCase() !== '100-continue' ? `The expectation '${expect}' cannot be met.` : undefined;

export function createApp(lectern: Lectern, options: AppOptions = {}): App {
  const metrics = new LecternMetrics(lectern);
  const routes = registerRoutes(new RouteTable(), lectern, {
    metrics,
    ...(options.viewerFiles ? { viewerFiles: options.viewerFiles } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const probes = probeRoutes(lectern);
  const consoleFiles = consolePages(options.consoleFiles ?? (() => undefined));
  const scim = scimApi(lectern);
  const rateLimit = options.rateLimit ?? { limit: 600, windowSeconds: 60 };
  // refusals (malformed requests, answered before they are parsed) are counted by this server alone
  const limiter = new FixedWindowRateLimiter(rateLimit);
  const sharedCounters = lectern.storage.sharedRateCounters();
  const requestLimiter = sharedCounters ? new SharedWindowRateLimiter(sharedCounters, rateLimit) : limiter;
  const perUser = { limit: rateLimit.perUser ?? rateLimit.limit * 10, windowSeconds: rateLimit.windowSeconds };
  const userLimiter = sharedCounters ? new SharedWindowRateLimiter(sharedCounters, perUser) : new FixedWindowRateLimiter(perUser);
  const resolveToken = tokenResolver(lectern.tokens, requestLimiter, userLimiter, WINDOWS);
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
  const onError = (error: unknown) => logger?.error({ err: error }, 'export failed after its first row');

  async function handle(request: PlainRequest): Promise<PlainResponse> {
    const started = performance.now();
    const requestId = newRequestId(request.headers);
    const origin = headerValue(request.headers, 'origin');
    const preflight = isPreflight(request.method, origin, headerValue(request.headers, 'access-control-request-method'));
    let reply: Reply;
    let state: RequestState | undefined;
    let rateHeaders: Record<string, string> = {};
    const probe = probes(request.method, request.url);
    try {
      if (probe) {
        reply = await probe.answer();
      } else {
        const resolved = authenticate(resolveToken, headerValue(request.headers, 'authorization'));
        const auth = resolved instanceof Promise ? await resolved : resolved;
        // the headers keep describing the token's window; the user's ceiling only adds refusals
        const userKey = auth.actor?.kind === 'user' && auth.actor.tokenId !== undefined ? `${WINDOWS.user}${auth.actor.userId}` : undefined;
        // counted already when the token was found in the shared database (tokenResolver)
        const hits = auth.hits ?? hitWindows(requestLimiter, rateKey(auth.actor, request), userLimiter, userKey);
        // the in-memory limiter answers at once: no need to wait a turn for it
        const [rate, userRate] = hits instanceof Promise ? await hits : hits;
        rateHeaders = rateLimitHeaders(rate);
        if (!rate.allowed) {
          // requests the user's ceiling refused used up the token's window too: when that ceiling
          // is reached as well, it is the limit the client ran into, and the one the message names
          const ceiling = userKey === undefined ? undefined : await userLimiter.peek(userKey);
          throw ceiling && !ceiling.allowed ? rateLimited(ceiling, "this user's tokens together") : rateLimited(rate);
        }
        if (userRate && !userRate.allowed) throw rateLimited(userRate, "this user's tokens together");
        const targetProblem = requestTargetProblem(request.url);
        if (targetProblem) throw badRequest(targetProblem);
        const expectation = expectationProblem(headerValue(request.headers, 'expect'));
        if (expectation) throw new LecternError('expectation_failed', expectation);
        if (preflight) cors.checkPreflight(origin!);
        const encoding = contentEncodingProblem(headerValue(request.headers, 'content-encoding'));
        if (encoding) throw new LecternError('unsupported_media_type', encoding, { headers: { 'Accept-Encoding': 'identity' } });
        if (request.bodyTooLarge) {
          throw new LecternError('payload_too_large', `The request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
        }

        const { pathname, query } = parseTarget(request.url);
        state = new RequestState(auth, requestId, query, request);
        state.path = pathname;
        // a search's cost grows with the table: such reads take turns (middleware/admission.ts)
        const costly = (request.method === 'GET' || request.method === 'HEAD') && Boolean(state.query.get('search'));
        const release = costly ? await searches.enter() : undefined;
        let matched: Reply | undefined;
        try {
          // the console's files are a folder, not API routes: answered beside the route table
          if (consoleFiles.serves(pathname)) {
            state.route = '/console';
            matched = consoleFiles.answer(request.method, pathname, state.query.toString(), state.header('accept-encoding'));
          } else if (scim.serves(pathname)) {
            // identity providers' provisioning: not the API, answered in SCIM's own terms (routes/scim.ts)
            matched = await scim.answer(request.method, pathname, state);
          } else {
            const routed = state;
            const dispatch = () => routes.dispatchPath(request.method, pathname, routed);
            // format=csv|ndjson: the whole list, streamed (export/list-export.ts)
            const format = exportFormatOf(request.method, routed.query);
            matched = format
              ? await exportList({
                  format,
                  query: routed.query,
                  read: dispatch,
                  route: () => routed.route,
                  spec: () => routed.spec,
                  clock: lectern.clock,
                  onError,
                })
              : await dispatch();
          }
        } finally {
          release?.();
        }
        reply = matched
          ? conditionalRead(request.method, matched, {
              ifNoneMatch: state.header('if-none-match'),
              ifModifiedSince: state.header('if-modified-since'),
            })
          : {
              status: 404,
              body: errorBody('not_found', `No route matches ${request.method} ${pathname}.`, requestId),
            };
      }
    } catch (error) {
      // SCIM clients read SCIM's error schema, whichever step refused the request (401, 429, 413…)
      reply = isLecternError(error) && scim.serves(pathOf(request.url)) ? scimErrorReply(error) : errorReply(error, requestId, logger);
    }
    const extra: Parameters<typeof respond>[2] = { rateHeaders, route: probe?.route ?? state?.route ?? null };
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
