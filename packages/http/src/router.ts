import { LecternError, type RequestContext } from '@lectern/core';
import type { Reply } from './reply.ts';

/** What a route handler gets. */
export interface RouteContext {
  /** the caller; reading it is what makes a route require authentication */
  readonly ctx: RequestContext;
  /** the request's id, for a route open without a token that still records who did what */
  readonly requestId: string;
  params: Record<string, string>;
  readonly query: URLSearchParams;
  /** the request's path as sent (`/api/v2/docs/`), for a page whose relative links depend on its trailing slash */
  readonly path?: string;
  header(name: string): string | undefined;
  /**
   * The request's preconditions for a write, handed to the service as they are (it compares
   * `ifMatch` with the current representation inside its transaction). Reads need none: the app
   * answers `If-None-Match` and `If-Modified-Since` from the reply's validators.
   */
  readonly preconditions: { ifMatch: string | undefined };
  /**
   * the parsed JSON object body (`{}` when empty); 400/413 when it cannot be. Typed as whatever
   * the receiving service accepts but NOT validated: every service parses its input itself.
   */
  body<Unvalidated>(): Unvalidated;
  /**
   * The raw body as it arrives, for a route registered with `streamingPost`: 413 once it passes
   * `maxBytes` (or at once, when its declared length does). Read it once.
   */
  bodyStream(maxBytes: number): AsyncIterable<Buffer>;
}

export type RouteHandler = (rc: RouteContext) => Promise<Reply> | Reply;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** What a path answers to: its routes' methods, HEAD wherever GET is, and OPTIONS everywhere. */
function allowedMethods(methods: ReadonlySet<Method>): string[] {
  const allowed = new Set<string>([...methods, 'OPTIONS']);
  if (methods.has('GET')) allowed.add('HEAD');
  return ALLOW_ORDER.filter((method) => allowed.has(method));
}

/**
 * Which of two patterns a request must try first: segment by segment, a literal segment before a
 * parameter, so `/events/bulk` is never taken for an event id whatever order routes were added in.
 */
function moreSpecificFirst(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParam = left[i]!.startsWith(':');
    const rightParam = right[i]!.startsWith(':');
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
  }
  return 0;
}

/** A registered path, split into segments: a literal, or a parameter (`:id`) matching one non-empty segment. */
interface CompiledPattern {
  pattern: string;
  segments: ReadonlyArray<{ literal: string } | { param: string; suffix: string }>;
  allow: string;
  methods: ReadonlySet<string>;
  handlers: ReadonlyMap<string, { handler: RouteHandler; authenticated: boolean }>;
}

/** `:id`, or `:key.ics`: a parameter followed by a fixed file extension (a calendar feed's address) */
const PARAM = /^:(\w+)((?:\.\w+)?)$/;

/**
 * The segments of a path as a pattern or a request path is compared with: the leading `/` and
 * any trailing ones dropped (every path answers with and without a trailing slash, and with more
 * than one), so `/api/v2/users/` is `['api', 'v2', 'users']`.
 */
function segmentsOf(path: string): string[] {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end <= 1 ? [] : path.slice(1, end).split('/');
}

/**
 * The route table. Every path answers with and without trailing slashes. HEAD runs the GET route
 * (the app drops the body); OPTIONS answers 204 with `Allow` and needs no authentication (browsers
 * send CORS preflights without credentials); a path that exists under other methods answers 405
 * with `Allow`. Routes may be added in any order: a request is matched against the patterns
 * literal segments first (moreSpecificFirst), and the first pattern that matches its path decides.
 * Parameters are handed over as sent (not percent-decoded). Matching is by segments, through an
 * index of the patterns by segment count and first segments: a scan of every pattern's regular
 * expression cost more than the rest of a small read.
 */
export class RouteTable {
  private readonly handlersByPattern = new Map<string, Map<Method, RouteHandler>>();
  private readonly publicRoutes = new Set<string>();
  /** streaming POST routes and their body limits */
  private readonly streamed = new Map<string, number>();
  private finalized = false;
  /** patterns by `segment count` and by `segment count/first three segments`, most specific first */
  private readonly index = new Map<string, CompiledPattern[]>();

  get(pattern: string, handler: RouteHandler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: RouteHandler): this {
    return this.add('POST', pattern, handler);
  }
  put(pattern: string, handler: RouteHandler): this {
    return this.add('PUT', pattern, handler);
  }
  patch(pattern: string, handler: RouteHandler): this {
    return this.add('PATCH', pattern, handler);
  }
  delete(pattern: string, handler: RouteHandler): this {
    return this.add('DELETE', pattern, handler);
  }
  /**
   * A POST whose body the route reads as a stream (an upload), up to `maxBytes`: the server does
   * not read it first (node-server.ts asks `streamLimit`), so it is never held whole in memory.
   */
  streamingPost(pattern: string, maxBytes: number, handler: RouteHandler): this {
    this.streamed.set(pattern, maxBytes);
    return this.add('POST', pattern, handler);
  }

  /** The byte limit of the streaming route a POST to `pathname` reaches, or undefined. */
  streamLimit(method: string, pathname: string): number | undefined {
    if (method !== 'POST' || this.streamed.size === 0) return undefined;
    this.finalize();
    const segments = segmentsOf(pathname);
    for (const candidate of this.index.get(String(segments.length)) ?? []) {
      if (matchSegments(candidate.segments, segments)) return this.streamed.get(candidate.pattern);
    }
    return undefined;
  }

  /** A GET that answers without authentication (the API description). */
  publicGet(pattern: string, handler: RouteHandler): this {
    this.publicRoutes.add(`GET ${pattern}`);
    return this.add('GET', pattern, handler);
  }

  /** A POST that answers without authentication (the console's sign-in link exchange). */
  publicPost(pattern: string, handler: RouteHandler): this {
    this.publicRoutes.add(`POST ${pattern}`);
    return this.add('POST', pattern, handler);
  }

  /** Every registered route, for the API description and the test that keeps it complete. */
  registered(): Array<{ method: Method; pattern: string; authenticated: boolean }> {
    return [...this.handlersByPattern].flatMap(([pattern, handlers]) =>
      ALLOW_ORDER.filter((m): m is Method => handlers.has(m as Method)).map((method) => ({
        method,
        pattern,
        authenticated: !this.publicRoutes.has(`${method} ${pattern}`),
      })),
    );
  }

  private add(method: Method, pattern: string, handler: RouteHandler): this {
    if (this.finalized) throw new Error('routes must be added before the table is finalized');
    if (!pattern.startsWith('/') || pattern.endsWith('/') || pattern.includes('//')) {
      throw new Error(`route ${pattern} must start with '/' and have no empty segment or trailing '/'`);
    }
    for (const segment of pattern.slice(1).split('/')) {
      if (segment.includes(':') && !PARAM.test(segment)) throw new Error(`route ${pattern}: a parameter is a whole segment, ':name'`);
      if (segment.includes('*')) throw new Error(`route ${pattern}: wildcards are not supported`);
    }
    let handlers = this.handlersByPattern.get(pattern);
    if (!handlers) this.handlersByPattern.set(pattern, (handlers = new Map()));
    if (handlers.has(method)) throw new Error(`${method} ${pattern} is registered twice`);
    handlers.set(method, handler);
    return this;
  }

  /** Orders and indexes the patterns, most specific first; no route may be added afterwards. */
  finalize(): this {
    if (this.finalized) return this;
    this.finalized = true;
    const compiled = [...this.handlersByPattern.keys()].sort(moreSpecificFirst).map((pattern): CompiledPattern => {
      const methods = this.handlersByPattern.get(pattern)!;
      const allowed = allowedMethods(new Set(methods.keys()));
      const handlers = new Map<string, { handler: RouteHandler; authenticated: boolean }>();
      for (const [method, handler] of methods) {
        const entry = { handler, authenticated: !this.publicRoutes.has(`${method} ${pattern}`) };
        handlers.set(method, entry);
        if (method === 'GET') handlers.set('HEAD', entry);
      }
      return {
        pattern,
        segments: segmentsOf(pattern).map((segment) => {
          const param = PARAM.exec(segment);
          return param === null ? { literal: segment } : { param: param[1]!, suffix: param[2]! };
        }),
        allow: allowed.join(', '),
        methods: new Set(allowed),
        handlers,
      };
    });
    // a request's candidates: the patterns of its segment count whose first segments it can match
    for (const candidate of compiled) {
      const count = candidate.segments.length;
      this.indexed(String(count)).push(candidate);
    }
    for (const candidate of compiled) {
      const count = candidate.segments.length;
      const head = candidate.segments.slice(0, INDEXED_SEGMENTS);
      if (head.length < INDEXED_SEGMENTS || head.some((segment) => 'param' in segment)) continue;
      const key = `${count}/${head.map((segment) => (segment as { literal: string }).literal).join('/')}`;
      if (this.index.has(key)) continue;
      this.index.set(
        key,
        this.indexed(String(count)).filter((other) =>
          other.segments
            .slice(0, INDEXED_SEGMENTS)
            .every((segment, i) => !('literal' in segment) || segment.literal === (head[i] as { literal: string }).literal),
        ),
      );
    }
    return this;
  }

  private indexed(key: string): CompiledPattern[] {
    let list = this.index.get(key);
    if (!list) this.index.set(key, (list = []));
    return list;
  }

  /** The reply of the matching route, or undefined when no route matches the path. */
  dispatch(method: string, url: string, rc: RouteContext & { route?: string }): Promise<Reply | undefined> {
    return this.dispatchPath(method, new URL(url).pathname, rc);
  }

  /** dispatch() for a path as the URL parser reads it (`/api/v2/users/`). */
  dispatchPath(method: string, pathname: string, rc: RouteContext & { route?: string }): Promise<Reply | undefined> {
    // the handler's own promise is handed on rather than awaited in another: one turn less
    try {
      return Promise.resolve(this.route(method, pathname, rc));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private route(method: string, pathname: string, rc: RouteContext & { route?: string }): Promise<Reply> | Reply | undefined {
    this.finalize();
    const segments = segmentsOf(pathname);
    const count = segments.length;
    const candidates =
      (count >= INDEXED_SEGMENTS && this.index.get(`${count}/${segments[0]}/${segments[1]}/${segments[2]}`)) ||
      this.index.get(String(count));
    if (!candidates) return undefined;
    for (const candidate of candidates) {
      const params = matchSegments(candidate.segments, segments);
      if (!params) continue;
      rc.params = params;
      rc.route = candidate.pattern;
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: candidate.allow } };
      const entry = candidate.methods.has(method) ? candidate.handlers.get(method) : undefined;
      if (!entry) {
        throw new LecternError('method_not_allowed', `Method ${method} is not allowed here. Allowed: ${candidate.allow}.`, {
          headers: { Allow: candidate.allow },
        });
      }
      // every other route requires authentication: this throws the 401 when there is none
      if (entry.authenticated) void rc.ctx;
      return entry.handler(rc);
    }
    return undefined;
  }
}

/** How many leading segments index the patterns (`api/v2/users`); route() spells the key out. */
const INDEXED_SEGMENTS = 3;

/** The parameters of a path the pattern matches, or undefined. */
function matchSegments(pattern: CompiledPattern['segments'], path: readonly string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i]!;
    const value = path[i]!;
    if ('literal' in segment) {
      if (segment.literal !== value) return undefined;
    } else {
      if (value.length <= segment.suffix.length || !value.endsWith(segment.suffix)) return undefined;
      (params ??= Object.create(null) as Record<string, string>)[segment.param] =
        segment.suffix === '' ? value : value.slice(0, -segment.suffix.length);
    }
  }
  return params ?? {};
}
