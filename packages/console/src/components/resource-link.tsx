/**
 * The one place that knows each resource's detail address, and the link every list row and every
 * mention of a record (a person in an assignment row, the event of an enrollment) uses.
 */
import type { ComponentChildren } from 'preact';
import type { Scope } from '../api/types.ts';
import { can } from '../session/me.ts';
import { Link } from './link.tsx';

const DETAIL_PAGES = {
  user: 'users',
  group: 'groups',
  content: 'content',
  event: 'events',
  series: 'events/series',
  webhook: 'webhooks',
  import: 'imports',
  'bulk-job': 'bulk-jobs',
} as const;

/** the scope a detail page needs: a learner sees its own name in a row as text, not a link to a page it may not open */
const READ_SCOPE: Partial<Record<keyof typeof DETAIL_PAGES, Scope>> = {
  user: 'users:read',
  group: 'groups:read',
  content: 'content:read',
  event: 'events:read',
  series: 'events:read',
  webhook: 'webhooks:read',
};

export type DetailKind = keyof typeof DETAIL_PAGES;

/** `user`, `abc` → `users/abc` (a console address, as Link and navigate take it). */
export function detailAddress(kind: DetailKind, ...id: string[]): string {
  return [DETAIL_PAGES[kind], ...id.map(encodeURIComponent)].join('/');
}

export function ResourceLink({ kind, id, children }: { kind: DetailKind; id: string | string[]; children: ComponentChildren }) {
  const scope = READ_SCOPE[kind];
  if (scope && !can(scope)) return <>{children}</>;
  return <Link to={detailAddress(kind, ...(Array.isArray(id) ? id : [id]))}>{children}</Link>;
}
