import { authorize, LecternError, type RequestContext } from '@lectern/core';
import type { z } from 'zod';
import type { OperationSpec } from './operation-spec.ts';
import type { Reply } from './reply.ts';

/**
 * What a route handler gets; `Params` are the pattern's parameters (ParamsOf), `Body` what its
 * declaration says the body is (BodyOf).
 */
export interface RouteContext<Params = Record<string, string>, Body = unknown> {
  /** the caller; reading it is what makes a route require authentication */
  readonly ctx: RequestContext;
  /** the request's id, for a route open without a token that still records who did what */
  readonly requestId: string;
  params: Params;
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
   * the parsed JSON object body (`{}` when empty); 400/413 when it cannot be. Typed as the input of
   * the request schema the route declares, the one the receiving service parses it with: it is
   * not validated here, as every service validates its input itself (for embedders too).
   */
  body(): Body;
  /**
   * The raw body as it arrives, for a route registered with `streamingPost`: 413 once it passes
   * `maxBytes` (or at once, when its declared length does). Read it once.
   */
  bodyStream(maxBytes: number): AsyncIterable<Buffer>;
}

export type RouteHandler<Params = Record<string, string>, Body = unknown> = (rc: RouteContext<Params, Body>) => Promise<Reply> | Reply;

/** The body a declaration says a route takes: its request schema's input. */
export type BodyOf<S extends OperationSpec> = [NonNullable<S['request']>] extends [z.ZodType] ? z.input<NonNullable<S['request']>> : NoBody;
/** a route that declares no body: the service is handed `{}`, or whatever a client sent anyway, which it refuses */
export type NoBody = Record<string, never>;

/**
 * A declaration and its handler made once for routes several paths share (an event and a series,
 * each content type's collection), spread where each path is registered:
 * `routes.get('/api/v2/events/:id', ...events.get)`.
 */
export const sharedRoute = <S extends OperationSpec>(spec: S, handler: RouteHandler<Record<string, string>, BodyOf<S>>) =>
  [spec, handler] as const;
/** sharedRoute for paths that end in a resource's id (`/api/v2/events/:id`) */
export const sharedRouteById = <S extends OperationSpec>(spec: S, handler: RouteHandler<{ readonly id: string }, BodyOf<S>>) =>
  [spec, handler] as const;

/** `:id` → `id`, `:key.ics` → `key`; a literal segment names none */
type ParamOfSegment<S extends string> = S extends `:${infer Name}.${string}` ? Name : S extends `:${infer Name}` ? Name : never;
type ParamNames<P extends string> = P extends `${infer Head}/${infer Tail}` ? ParamOfSegment<Head> | ParamNames<Tail> : ParamOfSegment<P>;
/**
 * The parameters a pattern written out in full gives its handler (`/api/v2/users/:id` → `{id}`),
 * so a handler names only parameters its path has; a pattern built at run time gives a record.
 */
export type ParamsOf<P extends string> = string extends P ? Record<string, string | undefined> : { readonly [K in ParamNames<P>]: string };

/** The context dispatch fills in: the pattern matched and what its route declares. */
export type RoutedContext = RouteContext & { route?: string; spec?: OperationSpec };

/** A registered route: its handler and what it declares. */
interface Route {
  handler: RouteHandler;
  spec: OperationSpec;
}

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
  handlers: ReadonlyMap<string, Route>;
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
  private readonly handlersByPattern = new Map<string, Map<Method, Route>>();
  private readonly answeredElsewhere: Array<{ method: Method; pattern: string; spec: OperationSpec }> = [];
  /** streaming POST routes and their body limits */
  private readonly streamed = new Map<string, number>();
  private finalized = false;
  /** patterns by `segment count` and by `segment count/first three segments`, most specific first */
  private readonly index = new Map<string, CompiledPattern[]>();

  get<P extends string, S extends OperationSpec>(pattern: P, spec: S, handler: RouteHandler<ParamsOf<P>, BodyOf<S>>): this {
    return this.add('GET', pattern, spec, handler);
  }
  post<P extends string, S extends OperationSpec>(pattern: P, spec: S, handler: RouteHandler<ParamsOf<P>, BodyOf<S>>): this {
    return this.add('POST', pattern, spec, handler);
  }
  put<P extends string, S extends OperationSpec>(pattern: P, spec: S, handler: RouteHandler<ParamsOf<P>, BodyOf<S>>): this {
    return this.add('PUT', pattern, spec, handler);
  }
  patch<P extends string, S extends OperationSpec>(pattern: P, spec: S, handler: RouteHandler<ParamsOf<P>, BodyOf<S>>): this {
    return this.add('PATCH', pattern, spec, handler);
  }
  delete<P extends string, S extends OperationSpec>(pattern: P, spec: S, handler: RouteHandler<ParamsOf<P>, BodyOf<S>>): this {
    return this.add('DELETE', pattern, spec, handler);
  }
  /**
   * A POST whose body the route reads as a stream (an upload), up to `maxBytes`: the server does
   * not read it first (node-server.ts asks `streamLimit`), so it is never held whole in memory.
   */
  streamingPost<P extends string, S extends OperationSpec>(
    pattern: P,
    maxBytes: number,
    spec: S,
    handler: RouteHandler<ParamsOf<P>, BodyOf<S>>,
  ): this {
    this.streamed.set(pattern, maxBytes);
    return this.add('POST', pattern, spec, handler);
  }

  /**
   * A route answered outside this table (the probes, before authentication and rate limiting):
   * never dispatched here, only described with the rest.
   */
  describeOnly(method: Method, pattern: string, spec: OperationSpec): this {
    this.answeredElsewhere.push({ method, pattern, spec });
    return this;
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

  /** Every route this table dispatches, with its declaration, in the order the paths were first registered. */
  registered(): Array<{ method: Method; pattern: string; spec: OperationSpec }> {
    return [...this.handlersByPattern].flatMap(([pattern, routes]) =>
      ALLOW_ORDER.filter((m): m is Method => routes.has(m as Method)).map((method) => ({
        method,
        pattern,
        spec: routes.get(method)!.spec,
      })),
    );
  }

  /** Every route to describe: those dispatched here, then those answered elsewhere. */
  described(): Array<{ method: Method; pattern: string; spec: OperationSpec }> {
    return [...this.registered(), ...this.answeredElsewhere];
  }

  private add<P extends string, B>(method: Method, pattern: P, spec: OperationSpec, handler: RouteHandler<ParamsOf<P>, B>): this {
    if (this.finalized) throw new Error('routes must be added before the table is finalized');
    if (!pattern.startsWith('/') || pattern.endsWith('/') || pattern.includes('//')) {
      throw new Error(`route ${pattern} must start with '/' and have no empty segment or trailing '/'`);
    }
    for (const segment of pattern.slice(1).split('/')) {
      if (segment.includes(':') && !PARAM.test(segment)) throw new Error(`route ${pattern}: a parameter is a whole segment, ':name'`);
      if (segment.includes('*')) throw new Error(`route ${pattern}: wildcards are not supported`);
    }
    let routes = this.handlersByPattern.get(pattern);
    if (!routes) this.handlersByPattern.set(pattern, (routes = new Map()));
    if (routes.has(method)) throw new Error(`${method} ${pattern} is registered twice`);
    // route() hands the handler exactly the parameters its pattern matched
    routes.set(method, { handler: handler as RouteHandler, spec });
    return this;
  }

  /** Orders and indexes the patterns, most specific first; no route may be added afterwards. */
  finalize(): this {
    if (this.finalized) return this;
    this.finalized = true;
    const compiled = [...this.handlersByPattern.keys()].sort(moreSpecificFirst).map((pattern): CompiledPattern => {
      const routes = this.handlersByPattern.get(pattern)!;
      const allowed = allowedMethods(new Set(routes.keys()));
      const handlers = new Map<string, Route>();
      for (const [method, route] of routes) {
        handlers.set(method, route);
        if (method === 'GET') handlers.set('HEAD', route);
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
  dispatch(method: string, url: string, rc: RoutedContext): Promise<Reply | undefined> {
    return this.dispatchPath(method, new URL(url).pathname, rc);
  }

  /** dispatch() for a path as the URL parser reads it (`/api/v2/users/`). */
  dispatchPath(method: string, pathname: string, rc: RoutedContext): Promise<Reply | undefined> {
    // the handler's own promise is handed on rather than awaited in another: one turn less
    try {
      return Promise.resolve(this.route(method, pathname, rc));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private route(method: string, pathname: string, rc: RoutedContext): Promise<Reply> | Reply | undefined {
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
      // reading the caller throws the 401 when there is none; then the declared scope, or 403
      rc.spec = entry.spec;
      const { scope } = entry.spec;
      if (scope === 'token') void rc.ctx;
      else if (scope !== null) authorize(rc.ctx.actor, scope);
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
