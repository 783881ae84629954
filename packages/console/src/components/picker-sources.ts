/**
 * Where each picker finds its options: the resource's list route searched with `search`, its
 * detail route for a pasted public id, and for users the `email` filter for a pasted address. Each
 * option says who or what it is, so a person picks by name and the form still sends the id.
 */
import { api, unwrap } from '../api/client.ts';
import type { PastedToken } from './picker-text.ts';
import { numericId } from './picker-text.ts';

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
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A lookup that finds nothing answers 404 (or 422 for a malformed id): no option, not an error. */
async function orNothing<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error && 'status' in error && (error.status === 404 || error.status === 422)) return undefined;
    throw error;
  }
}

type User = { public_id: string; name: string; email: string };
const userOption = (user: User): PickOption => ({ value: user.public_id, label: user.name || user.email, detail: user.email });

const sources: Record<PickKind, PickSource> = {
  user: {
    noun: 'user',
    async search(text) {
      const page = await unwrap(api.GET('/api/v2/users', { params: { query: { search: text, page_size: PAGE, ordering: 'name' } } }));
      return page.data.map(userOption);
    },
    async resolve(token) {
      if (token.kind === 'email') {
        const page = await unwrap(api.GET('/api/v2/users', { params: { query: { email: token.value, page_size: 1 } } }));
        return page.data[0] ? userOption(page.data[0]) : undefined;
      }
      const user = await orNothing(() => unwrap(api.GET('/api/v2/users/{id}', { params: { path: { id: token.value } } })));
      return user ? userOption(user) : undefined;
    },
  },
  group: {
    noun: 'group',
    async search(text) {
      const page = await unwrap(api.GET('/api/v2/groups', { params: { query: { search: text, page_size: PAGE, ordering: 'name' } } }));
      return page.data.map((group) => ({ value: group.public_id, label: group.name, detail: `${group.member_count} members` }));
    },
    async resolve(token) {
      if (token.kind !== 'id') return undefined;
      const group = await orNothing(() => unwrap(api.GET('/api/v2/groups/{id}', { params: { path: { id: token.value } } })));
      return group ? { value: group.public_id, label: group.name, detail: `${group.member_count} members` } : undefined;
    },
  },
  content: {
    noun: 'content item',
    async search(text) {
      const page = await unwrap(
        api.GET('/api/v2/content-items', { params: { query: { search: text, page_size: PAGE, ordering: 'name' } } }),
      );
      return page.data.map((item) => ({ value: item.public_id, label: item.name, detail: typeLabel(item.content_type) }));
    },
    async resolve(token) {
      if (token.kind !== 'id') return undefined;
      const item = await orNothing(() => unwrap(api.GET('/api/v2/content-items/{id}', { params: { path: { id: token.value } } })));
      return item ? { value: item.public_id, label: item.name, detail: typeLabel(item.content_type) } : undefined;
    },
  },
  event: {
    noun: 'event',
    async search(text) {
      const page = await unwrap(api.GET('/api/v2/events', { params: { query: { search: text, page_size: PAGE } } }));
      return page.data.map((event) => ({ value: event.public_id, label: event.name, detail: when(event.starts_at_utc) }));
    },
    async resolve(token) {
      if (token.kind !== 'id') return undefined;
      const event = await orNothing(() => unwrap(api.GET('/api/v2/events/{id}', { params: { path: { id: token.value } } })));
      return event ? { value: event.public_id, label: event.name, detail: when(event.starts_at_utc) } : undefined;
    },
  },
  series: {
    noun: 'series',
    async search(text) {
      const page = await unwrap(
        api.GET('/api/v2/event-series', { params: { query: { search: text, page_size: PAGE, ordering: 'name' } } }),
      );
      return page.data.map((series) => ({ value: series.public_id, label: series.name }));
    },
    async resolve(token) {
      if (token.kind !== 'id') return undefined;
      const series = await orNothing(() => unwrap(api.GET('/api/v2/event-series/{id}', { params: { path: { id: token.value } } })));
      return series ? { value: series.public_id, label: series.name } : undefined;
    },
  },
  location: {
    noun: 'location',
    async search(text) {
      const page = await unwrap(api.GET('/api/v2/locations', { params: { query: { search: text, page_size: PAGE, ordering: 'name' } } }));
      return page.data.map((location) => ({ value: String(location.id), label: location.name, detail: location.timezone }));
    },
    async resolve(token) {
      const id = token.kind === 'number' ? numericId(token.value) : undefined;
      if (id === undefined) return undefined;
      const location = await orNothing(() => unwrap(api.GET('/api/v2/locations/{id}', { params: { path: { id: String(id) } } })));
      return location ? { value: String(location.id), label: location.name, detail: location.timezone } : undefined;
    },
  },
};

export const sourceOf = (kind: PickKind): PickSource => sources[kind];
