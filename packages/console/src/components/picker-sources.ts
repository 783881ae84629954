/**
 * Where each picker finds its options: the resource's list route searched with `search`, its
 * detail route for a pasted public id, and for users the `email` filter for a pasted address. Each
 * option says who or what it is, so a person picks by name and the form still sends the id.
 */
import { api, unwrap } from '../api/client.ts';
import type { PastedToken } from './picker-text.ts';
import { numericId } from './picker-text.ts';
import { localDateTime } from './local-time.ts';

export interface PickOption {
  /** what the form sends: a public id, or a location's number */
  value: string;
  label: string;
  /** the second line: an email, a type, a start, a time zone */
  detail?: string;
}

export type PickKind = 'user' | 'group' | 'content' | 'event' | 'series' | 'location';

export interface PickSource {
  /** the options matching typed text (a page of the list route) */
  search(text: string): Promise<PickOption[]>;
  /** the option a pasted id or email names, or undefined when none */
  resolve(token: PastedToken | { kind: 'number'; value: string }): Promise<PickOption | undefined>;
  /** "user", "group": for the empty state and the chips' remove buttons */
  noun: string;
}

const PAGE = 10;
const typeLabel = (type: string) => type.replace('_', ' ');
const locationOption = (location: { id: number; name: string; timezone: string }): PickOption => ({
  value: String(location.id),
  label: location.name,
  detail: location.timezone,
});
const when = (iso: string) => localDateTime(new Date(iso));

/** A lookup that finds nothing answers 404 (or 422 for a malformed id): no option, not an error. */
async function orNothing<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error && 'status' in error && (error.status === 404 || error.status === 422)) return undefined;
    throw error;
  }
}

/** A source whose pasted ids are looked up on the detail route (every kind but users' emails and locations' numbers). */
function byPublicId<T>(
  noun: string,
  option: (row: T) => PickOption,
  list: (text: string) => Promise<{ data: T[] }>,
  detail: (id: string) => Promise<T>,
): PickSource {
  return {
    noun,
    search: async (text) => (await list(text)).data.map(option),
    async resolve(token) {
      if (token.kind !== 'id') return undefined;
      const row = await orNothing(() => detail(token.value));
      return row ? option(row) : undefined;
    },
  };
}

type User = { public_id: string; name: string; email: string };
const userOption = (user: User): PickOption => ({ value: user.public_id, label: user.name || user.email, detail: user.email });
const users = byPublicId(
  'user',
  userOption,
  (search) => unwrap(api.GET('/api/v2/users', { params: { query: { search, page_size: PAGE, ordering: 'name' } } })),
  (id) => unwrap(api.GET('/api/v2/users/{id}', { params: { path: { id } } })),
);

const sources: Record<PickKind, PickSource> = {
  user: {
    ...users,
    async resolve(token) {
      if (token.kind !== 'email') return users.resolve(token);
      const page = await unwrap(api.GET('/api/v2/users', { params: { query: { email: token.value, page_size: 1 } } }));
      return page.data[0] ? userOption(page.data[0]) : undefined;
    },
  },
  group: byPublicId(
    'group',
    (group: { public_id: string; name: string; member_count: number }) => ({
      value: group.public_id,
      label: group.name,
      detail: `${group.member_count} members`,
    }),
    (search) => unwrap(api.GET('/api/v2/groups', { params: { query: { search, page_size: PAGE, ordering: 'name' } } })),
    (id) => unwrap(api.GET('/api/v2/groups/{id}', { params: { path: { id } } })),
  ),
  content: byPublicId(
    'content item',
    (item: { public_id: string; name: string; content_type: string }) => ({
      value: item.public_id,
      label: item.name,
      detail: typeLabel(item.content_type),
    }),
    (search) => unwrap(api.GET('/api/v2/content-items', { params: { query: { search, page_size: PAGE, ordering: 'name' } } })),
    (id) => unwrap(api.GET('/api/v2/content-items/{id}', { params: { path: { id } } })),
  ),
  event: byPublicId(
    'event',
    (event: { public_id: string; name: string; starts_at_utc: string }) => ({
      value: event.public_id,
      label: event.name,
      detail: when(event.starts_at_utc),
    }),
    (search) => unwrap(api.GET('/api/v2/events', { params: { query: { search, page_size: PAGE } } })),
    (id) => unwrap(api.GET('/api/v2/events/{id}', { params: { path: { id } } })),
  ),
  series: byPublicId(
    'series',
    (series: { public_id: string; name: string }) => ({ value: series.public_id, label: series.name }),
    (search) => unwrap(api.GET('/api/v2/event-series', { params: { query: { search, page_size: PAGE, ordering: 'name' } } })),
    (id) => unwrap(api.GET('/api/v2/event-series/{id}', { params: { path: { id } } })),
  ),
  location: {
    noun: 'location',
    async search(text) {
      const page = await unwrap(api.GET('/api/v2/locations', { params: { query: { search: text, page_size: PAGE, ordering: 'name' } } }));
      return page.data.map(locationOption);
    },
    async resolve(token) {
      const id = token.kind === 'number' ? numericId(token.value) : undefined;
      if (id === undefined) return undefined;
      const location = await orNothing(() => unwrap(api.GET('/api/v2/locations/{id}', { params: { path: { id: String(id) } } })));
      return location ? locationOption(location) : undefined;
    },
  },
};

export const sourceOf = (kind: PickKind): PickSource => sources[kind];
