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
  /** the parsed JSON object body (`{}` when empty); 400/413 when it cannot be */
  body(): unknown;
}

export type RouteHandler = (rc: RouteContext) => Promise<Reply> | Reply;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Routes over itty-router. Every path answers with and without a trailing slash (itty's patterns
 * allow one). A path that exists under other methods answers 405 with `Allow`.
 */
export class RouteTable {
  private readonly router = IttyRouter<IRequest, [RouteContext & { route?: string }], Reply>();
  private readonly methodsByPattern = new Map<string, Set<Method>>();
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

  private add(method: Method, pattern: string, handler: RouteHandler): this {
    if (this.finalized) throw new Error('routes must be added before the table is finalized');
    const methods = this.methodsByPattern.get(pattern) ?? new Set<Method>();
    methods.add(method);
    this.methodsByPattern.set(pattern, methods);
    this.router[method.toLowerCase() as Lowercase<Method>](pattern, (request, rc) => {
      rc.params = request.params ?? {};
      rc.route = request.route;
      void rc.ctx; // every route requires authentication: this throws the 401 when there is none
      return handler(rc);
    });
    return this;
  }

  /** Adds the 405 fallbacks; call once, after every route. */
  finalize(): this {
    for (const [pattern, methods] of this.methodsByPattern) {
      const allow = [...methods].join(', ');
      this.router.all(pattern, (request, rc) => {
        rc.route = request.route;
        throw new LecternError('method_not_allowed', `Method ${request.method} is not allowed here. Allowed: ${allow}.`, {
          headers: { Allow: allow },
        });
      });
    }
    this.finalized = true;
    return this;
  }

  /** The reply of the matching route, or undefined when no route matches the path. */
  dispatch(method: string, url: string, rc: RouteContext & { route?: string }): Promise<Reply | undefined> {
    // itty only reads method and url and writes params/route: a plain object is all it needs
    return this.router.fetch({ method, url } as unknown as IRequest, rc);
  }
}
