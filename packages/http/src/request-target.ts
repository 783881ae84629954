/**
 * Which request targets the router may see. Only origin-form (`/path?query`) is served, and only
 * when the URL parser would read the path exactly as sent: a proxy in front of Lectern that allows
 * or blocks by path prefix must see the same path the router matches.
 *
 * - `//host/path` (and `/\host/path`, since the parser reads `\` as `/`) would be parsed as a host
 *   followed by a path, so `//x/api/v2/api-tokens/` would be served as `/api/v2/api-tokens/`.
 * - `.` and `..` segments (also as `%2e`) would be resolved: `/api/v2/x/../api-tokens/`.
 * - absolute-form (`http://host/path`) is what clients send to proxies, and `*` (asterisk-form)
 *   names the whole server; neither is a path on this one.
 */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Why the target cannot be served, or undefined when it is a plain origin-form target. */
export function requestTargetProblem(target: string): string | undefined {
  if (!target.startsWith('/') || target[1] === '/' || target[1] === '\\') {
    return "The request target must be a path that starts with exactly one '/'.";
  }
  const end = pathEnd(target);
  const path = end === -1 ? target : target.slice(0, end);
  if (path.includes('\\')) return "The request path must not contain '\\'.";
  // without '.' or '%' no segment can be a dot segment: most paths need no splitting
  if ((path.includes('.') || path.includes('%')) && path.split('/').some((segment) => DOT_SEGMENT.test(segment))) {
    return "The request path must not contain '.' or '..' segments.";
  }
  return undefined;
}

/** Where the path ends: at the first `?` or `#`, or -1. */
function pathEnd(target: string): number {
  const query = target.indexOf('?');
  const fragment = target.indexOf('#');
  return query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
}

const BASE = 'http://lectern.invalid';
/** Paths the URL parser leaves exactly as sent: no character it would percent-encode or drop. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
/**
 * Printable ASCII without `#`: the URL parser's encoding of such a query decodes back to it. Not
 * starting with `?`, which URLSearchParams would drop and the parser keeps.
 */
const PLAIN_QUERY = /^(?!\?)[\x21\x22\x24-\x7e]*$/;

/**
 * The path and query parameters of a target requestTargetProblem accepts, as the URL parser reads
 * them. Building a URL costs more than the rest of routing, so the plain targets clients send are
 * split by hand; anything else goes through the parser.
 */
export function parseTarget(target: string): { pathname: string; query: () => URLSearchParams } {
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const search = mark === -1 ? '' : target.slice(mark + 1);
  // parameters are parsed when a route reads them: reads by id never do
  if (PLAIN_PATH.test(path) && PLAIN_QUERY.test(search)) return { pathname: path, query: () => new URLSearchParams(search) };
  const url = new URL(target, BASE);
  return { pathname: url.pathname, query: () => url.searchParams };
}
