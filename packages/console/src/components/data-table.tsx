/**
 * A table of one server page. Rows have a fixed height (styles.css) and, while the next page
 * loads, the previous rows stay (dimmed, aria-busy) or placeholder rows hold the space, so the
 * layout does not jump when 100 rows arrive.
 */
import type { ComponentChildren } from 'preact';

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** a narrow column for numbers, dates and actions */
  class?: string;
}

export interface DataTableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  /** placeholder rows before the first page arrives */
  expectedRows?: number;
  empty?: string;
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  expectedRows = 10,
  empty = 'Nothing here yet.',
}: DataTableProps<T>) {
  return (
    // focusable, so a keyboard can scroll a table wider than a phone screen
    <div class="table-wrap" role="region" aria-label={`${caption} table`} tabIndex={0} aria-busy={loading ? true : undefined}>
      <table class={loading && rows ? 'loading' : undefined}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.class}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows === undefined && !loading
            ? null
            : rows === undefined
              ? Array.from({ length: Math.min(expectedRows, 25) }, (_, index) => (
                  <tr key={index} class="placeholder" aria-hidden="true">
                    {columns.map((column) => (
                      <td key={column.header}>
                        <span class="skeleton" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows.map((row) => (
                  <tr key={rowKey(row)}>
                    {columns.map((column) => (
                      <td key={column.header} class={column.class}>
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                ))}
          {rows && rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="empty">
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
