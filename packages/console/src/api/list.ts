/**
 * What every list shares. A list's page calls the typed client itself, on its own route (so the
 * route's query and answer are checked there); this module reads the address's text into the
 * route's typed query values and checks the answer is a page.
 */
import type { Outcome } from './client.ts';
import type { PageMeta } from './types.ts';

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

/** The page size a list asks for when the address names none. */
export const DEFAULT_PAGE_SIZE = '25';

/**
 * A list route called for one page of rows, or for every row as CSV. The list hands its loader its
 * route (`path`, typed as the one literal route) so that the page names the route once.
 */
export type PageLoader<T, P extends string = string> = (query: AddressQuery, path: P) => Promise<Outcome<Page<T>>>;
export type CsvLoader<P extends string = string> = (query: AddressQuery, path: P) => Promise<Outcome<Blob>>;

/**
 * The address's query parameters, read into the types a route's query takes: a value that is not
 * one the route accepts (a hand-edited address) is left out, so the server's default applies.
 */
export class AddressQuery {
  constructor(private readonly values: Readonly<Record<string, string>>) {}

  text(name: string): string | undefined {
    return this.values[name] || undefined;
  }

  /** a whole number of at least 1 (a page, a page size) */
  count(name: string): number | undefined {
    const value = Number(this.values[name]);
    return Number.isInteger(value) && value >= 1 ? value : undefined;
  }

  flag(name: string): boolean | undefined {
    const value = this.values[name];
    return value === 'true' ? true : value === 'false' ? false : undefined;
  }

  /** one of the values the route's parameter takes (its enum, from schema-values.ts) */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    return allowed.find((value) => value === this.values[name]);
  }

  /** several of the values the route's parameter takes, comma-separated as the API reads them */
  someOf<T extends string>(name: string, allowed: readonly T[]): T[] | undefined {
    const chosen = allowed.filter((value) => (this.values[name] ?? '').split(',').includes(value));
    return chosen.length ? chosen : undefined;
  }

  /** the values as one text, equal for equal addresses (whatever their order) */
  get key(): string {
    return JSON.stringify(Object.entries(this.values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** page and page_size, which every list takes */
  get paging(): { page?: number; page_size?: number } {
    return { page: this.count('page'), page_size: this.count('page_size') };
  }
}

/**
 * A list's loader that the shell can start before the page's code has arrived (see earlyLoader);
 * started before there is a list, it names its route itself.
 */
export interface EarlyLoader<T> {
  (query: AddressQuery): Promise<Outcome<Page<T>>>;
  /** asks for the page of rows these address values show, for the list's first call to take */
  start(values: Readonly<Record<string, string>>): void;
}

/**
 * Wraps a list's loader so that a request started early (by the shell, from the address, while
 * /me and the page's code are still on their way) is handed to the list's first call when that
 * call asks for the same values; any other first call drops it and asks anew, so an early answer
 * is used once, at once, or never (no stale rows later).
 */
export function earlyLoader<T>(load: (query: AddressQuery) => Promise<Outcome<Page<T>>>): EarlyLoader<T> {
  let early: { key: string; outcome: Promise<Outcome<Page<T>>> } | undefined;
  const loader = (query: AddressQuery) => {
    const started = early;
    early = undefined;
    return started && started.key === query.key ? started.outcome : load(query);
  };
  return Object.assign(loader, {
    start(values: Readonly<Record<string, string>>) {
      const query = new AddressQuery(values);
      const outcome = load(query);
      // a failure is the list's to report when it takes the request; none may go unhandled before
      outcome.catch(() => undefined);
      early = { key: query.key, outcome };
    },
  });
}

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
