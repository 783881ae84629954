import { IttyRouter, type IRequest } from 'itty-router';
import { LecternError, type RequestContext } from '@lectern/core';
import type { Reply } from './reply.ts';

/** What a route handler gets. */
export interface RouteContext {
  /** the caller; reading it is what makes a route require authentication */
  readonly ctx: RequestContext;
  params: Record<string, string>;
  readonly query: URLSearchParams;
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

/**
 * Routes over itty-router. Every path answers with and without a trailing slash (itty's patterns
 * allow one). HEAD runs the GET route (the app drops the body); OPTIONS answers 204 with `Allow`
 * and needs no authentication (browsers send CORS preflights without credentials); a path that
 * exists under other methods answers 405 with `Allow`. Routes may be added in any order: the
 * table hands them to itty literal segments first (moreSpecificFirst).
 */
export class RouteTable {
  private readonly router = IttyRouter<IRequest, [RouteContext & { route?: string }], Reply>();
  private readonly handlersByPattern = new Map<string, Map<Method, RouteHandler>>();
  private readonly publicRoutes = new Set<string>();
  private finalized = false;

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
  /** A GET that answers without authentication (the API description). */
  publicGet(pattern: string, handler: RouteHandler): this {
    this.publicRoutes.add(`GET ${pattern}`);
    return this.add('GET', pattern, handler);
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
    let handlers = this.handlersByPattern.get(pattern);
    if (!handlers) this.handlersByPattern.set(pattern, (handlers = new Map()));
    if (handlers.has(method)) throw new Error(`${method} ${pattern} is registered twice`);
    handlers.set(method, handler);
    return this;
  }

  /** Hands the routes to itty, most specific paths first; no route may be added afterwards. */
  finalize(): this {
    if (this.finalized) return this;
    this.finalized = true;
    const patterns = [...this.handlersByPattern.keys()].sort(moreSpecificFirst);
    for (const pattern of patterns) {
      const handlers = this.handlersByPattern.get(pattern)!;
      this.addOptionsAndMethodNotAllowed(pattern, new Set(handlers.keys()));
      for (const [method, handler] of handlers) {
        const run = (request: IRequest, rc: RouteContext & { route?: string }) => {
          rc.params = request.params ?? {};
          rc.route = request.route;
          // every other route requires authentication: this throws the 401 when there is none
          if (!this.publicRoutes.has(`${method} ${pattern}`)) void rc.ctx;
          return handler(rc);
        };
        this.router[method.toLowerCase() as Lowercase<Method>](pattern, run);
        if (method === 'GET') this.router.head(pattern, run);
      }
    }
    return this;
  }

  /** OPTIONS and the 405 for a path, before its own routes. */
  private addOptionsAndMethodNotAllowed(pattern: string, methods: ReadonlySet<Method>): void {
    this.router.all(pattern, (request, rc) => {
      const allowed = allowedMethods(methods);
      if (request.method !== 'OPTIONS' && allowed.includes(request.method)) return undefined; // the route itself comes next
      rc.route = request.route;
      const allow = allowed.join(', ');
      if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: allow } };
      throw new LecternError('method_not_allowed', `Method ${request.method} is not allowed here. Allowed: ${allow}.`, {
        headers: { Allow: allow },
      });
    });
  }

  /** The reply of the matching route, or undefined when no route matches the path. */
  dispatch(method: string, url: string, rc: RouteContext & { route?: string }): Promise<Reply | undefined> {
    this.finalize();
    // itty only reads method and url and writes params/route: a plain object is all it needs
    return this.router.fetch({ method, url } as unknown as IRequest, rc);
  }
}
