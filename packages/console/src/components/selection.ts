/**
 * Which rows of a table are selected, for bulk actions. The selection belongs to one view of the
 * list (its page, filters and order, as `scope`): a new view starts empty, so an action never
 * reaches rows the person can no longer see.
 */
import { useState } from 'preact/hooks';

export type RowKey = string | number;

/** What the "select all on this page" box shows. */
export type PageSelection = 'none' | 'some' | 'all';

export function pageSelection(keys: readonly RowKey[], selected: ReadonlySet<RowKey>): PageSelection {
  const count = keys.filter((key) => selected.has(key)).length;
  return count === 0 ? 'none' : count === keys.length ? 'all' : 'some';
}

/** The selection after the header box is pressed: all of the page, unless all were already selected. */
export function toggledPage(keys: readonly RowKey[], selected: ReadonlySet<RowKey>): Set<RowKey> {
  return pageSelection(keys, selected) === 'all' ? new Set() : new Set(keys);
}

export function toggledRow(key: RowKey, selected: ReadonlySet<RowKey>): Set<RowKey> {
  const next = new Set(selected);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

export interface Selection<T> {
  /** the selected rows, in the table's order */
  rows: T[];
  has: (row: T) => boolean;
  toggle: (row: T) => void;
  page: PageSelection;
  togglePage: () => void;
  clear: () => void;
  /** the accessible name of a row's box */
  label: (row: T) => string;
}

export function useSelection<T>(rows: readonly T[], rowKey: (row: T) => RowKey, scope: string, label: (row: T) => string): Selection<T> {
  const [state, setState] = useState<{ scope: string; keys: ReadonlySet<RowKey> }>({ scope, keys: new Set() });
  const keys = state.scope === scope ? state.keys : new Set<RowKey>();
  const pageKeys = rows.map(rowKey);
  const set = (next: ReadonlySet<RowKey>) => setState({ scope, keys: next });
  return {
    rows: rows.filter((row) => keys.has(rowKey(row))),
    has: (row) => keys.has(rowKey(row)),
    toggle: (row) => set(toggledRow(rowKey(row), keys)),
    page: pageSelection(pageKeys, keys),
    togglePage: () => set(toggledPage(pageKeys, keys)),
    clear: () => set(new Set()),
    label,
  };
}
