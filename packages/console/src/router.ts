/**
 * A small history router for everything under /console/: the page is the path, a list's filters,
 * search, ordering and page are the query, so any view can be bookmarked or shared.
 */
import { signal } from '@preact/signals';

export const BASE = '/console';

const current = () => ({ path: location.pathname, search: location.search });
export const place = signal(current());

addEventListener('popstate', () => {
  place.value = current();
});

/** Goes to a console address (`users?page=2` or `/console/users`). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to.startsWith('/') ? to : `${BASE}/${to}`, location.origin);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  place.value = current();
  if (!options.replace) scrollTo(0, 0);
}

/** The page segment after /console/ (`users`, `` for the overview). */
export function pageName(path: string): string {
  return path.startsWith(`${BASE}/`) ? (path.slice(BASE.length + 1).split('/')[0] ?? '') : '';
}

/** The first segment after the page (`/console/users/abc` → `abc`). */
export function subPath(path: string): string | undefined {
  return path.startsWith(`${BASE}/`) ? path.slice(BASE.length + 1).split('/')[1] || undefined : undefined;
}

/** Every segment after the page (`/console/events/series/abc` → `['series', 'abc']`), decoded. */
export function subPaths(path: string): string[] {
  if (!path.startsWith(`${BASE}/`)) return [];
  return path
    .slice(BASE.length + 1)
    .split('/')
    .slice(1)
    .filter(Boolean)
    .map((segment) => decodeURIComponent(segment));
}

export function query(): URLSearchParams {
  return new URLSearchParams(place.value.search);
}

/** Changes some query parameters of the current address; an empty value removes one. */
export function setQuery(changes: Record<string, string | undefined>, options: { replace?: boolean } = {}): void {
  const params = query();
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') params.delete(key);
    else params.set(key, value);
  }
  const search = params.toString();
  navigate(`${place.value.path}${search ? `?${search}` : ''}`, options);
}

/** The query parameters that open a page's detail panel (`?edit=<id>`, `?assignment=<id>`, …); records have their own pages instead (`/console/users/<id>`). */
export const PANEL_PARAMS = ['edit', 'assignment', 'report'] as const;
