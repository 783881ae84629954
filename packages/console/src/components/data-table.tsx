/**
 * A table of one server page. Rows have a fixed height (styles.css) and, while the next page
 * loads, the previous rows stay (dimmed, aria-busy) or placeholder rows hold the space, so the
 * layout does not jump when 100 rows arrive.
 */
import type { ComponentChildren } from 'preact';
import { ErrorBanner } from './error-banner.tsx';
import type { Selection } from './selection.ts';
import type { Loaded } from './use-load.ts';

/** One column of a table of rows of type T; S is the list's field its header may order by. */
export interface Column<T, S extends string = never> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** a narrow column for numbers, dates and actions */
  class?: string;
  /** the list route's ordering field this column shows: its header becomes a sort button */
  sort?: S;
}

/** The order a list is in (`name` or `-name`, as the API's `ordering` takes it) and how to change it. */
export interface Sorting {
  ordering: string;
  onOrder: (ordering: string) => void;
}

/** The next order when a column's header is pressed: ascending first, then the two directions in turn. */
export function nextOrdering(current: string, field: string): string {
  return current === field ? `-${field}` : field;
}

function direction(current: string, field: string): 'ascending' | 'descending' | undefined {
  if (current === field) return 'ascending';
  if (current === `-${field}`) return 'descending';
  return undefined;
}

function Header<T, S extends string>({ column, sorting }: { column: Column<T, S>; sorting: Sorting | undefined }) {
  const field = column.sort;
  if (!field || !sorting) {
    return (
      <th scope="col" class={column.class}>
        {column.header}
      </th>
    );
  }
  const sorted = direction(sorting.ordering, field);
  return (
    <th scope="col" class={column.class} aria-sort={sorted}>
      <button type="button" class="sort" onClick={() => sorting.onOrder(nextOrdering(sorting.ordering, field))}>
        {column.header}
        <span aria-hidden="true">{sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ' ↕'}</span>
      </button>
    </th>
  );
}

export interface DataTableProps<T, S extends string = never> {
  caption: string;
  columns: readonly Column<T, S>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  /** placeholder rows before the first page arrives */
  expectedRows?: number;
  /** what an empty table says: what there is none of, and what to do next */
  empty?: ComponentChildren;
  /** given, the headers of columns with a `sort` field order the list */
  sorting?: Sorting;
  /** given, a first column of boxes selects rows (and the whole page from the header) */
  selection?: Selection<T>;
}

function SelectAll<T>({ selection }: { selection: Selection<T> }) {
  return (
    <th scope="col" class="select">
      <input
        type="checkbox"
        aria-label="Select all on this page"
        checked={selection.page === 'all'}
        indeterminate={selection.page === 'some'}
        onChange={selection.togglePage}
      />
    </th>
  );
}

function SelectRow<T>({ selection, row }: { selection: Selection<T>; row: T }) {
  return (
    <td class="select">
      <input
        type="checkbox"
        aria-label={`Select ${selection.label(row)}`}
        checked={selection.has(row)}
        onChange={() => selection.toggle(row)}
      />
    </td>
  );
}

export function DataTable<T, S extends string = never>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  expectedRows = 10,
  empty = 'Nothing here yet.',
  sorting,
  selection,
}: DataTableProps<T, S>) {
  const width = columns.length + (selection ? 1 : 0);
  return (
    // focusable, so a keyboard can scroll a table wider than a phone screen
    <div class="table-wrap" role="region" aria-label={`${caption} table`} tabIndex={0} aria-busy={loading ? true : undefined}>
      <table class={loading && rows ? 'loading' : undefined}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {selection ? <SelectAll selection={selection} /> : null}
            {columns.map((column) => (
              <Header key={column.header} column={column} sorting={sorting} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows === undefined && !loading
            ? null
            : rows === undefined
              ? Array.from({ length: Math.min(expectedRows, 25) }, (_, index) => (
                  <tr key={index} class="placeholder" aria-hidden="true">
                    {selection ? <td class="select" /> : null}
                    {columns.map((column) => (
                      <td key={column.header}>
                        <span class="skeleton" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows.map((row) => (
                  <tr key={rowKey(row)} class={selection?.has(row) ? 'selected' : undefined}>
                    {selection ? <SelectRow selection={selection} row={row} /> : null}
                    {columns.map((column) => (
                      <td key={column.header} class={column.class}>
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                ))}
          {rows && rows.length === 0 ? (
            <tr>
              <td colSpan={width} class="empty">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {loading ? (
        <p class="visually-hidden" role="status">
          Loading…
        </p>
      ) : null}
    </div>
  );
}

/** The table of a loaded page of rows (`{ data: [...] }`), with the load's failure and a retry above it. */
export function LoadedTable<T, S extends string = never>({
  loaded,
  ...table
}: Omit<DataTableProps<T, S>, 'rows' | 'loading'> & { loaded: Loaded<{ data: T[] }> }) {
  return (
    <>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      <DataTable {...table} rows={loaded.data?.data} loading={loaded.loading} />
    </>
  );
}
