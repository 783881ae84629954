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
  const path = target.split(/[?#]/, 1)[0]!;
  if (path.includes('\\')) return "The request path must not contain '\\'.";
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment))) {
    return "The request path must not contain '.' or '..' segments.";
  }
  return undefined;
}
