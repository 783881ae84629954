/**
 * A server-paged list whose search, filters, ordering and page live in the address (so the view
 * can be bookmarked), with the table, a pager, a retry on failure and a CSV download of every
 * matching row.
 */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { unwrap } from '../api/client.ts';
import { AddressQuery, type CsvLoader, DEFAULT_PAGE_SIZE, type PageLoader, saveBlob } from '../api/list.ts';
import type { ListItem, ListPath, Ordering, SortField } from '../api/types.ts';
import { place, query, setQuery } from '../router.ts';
import { BulkBar, type Selectable } from './bulk-bar.tsx';
import { LoadedTable, type Column } from './data-table.tsx';
import { ErrorBanner } from './error-banner.tsx';
import { Picker } from './picker.tsx';
import type { PickKind } from './picker-sources.ts';
import { useLoad } from './use-load.ts';
import { useSelection } from './selection.ts';

export interface Filter {
  name: string;
  label: string;
  /** a select's options ([value, text]); a text input without */
  options?: readonly (readonly [string, string])[];
  type?: 'text' | 'date' | 'datetime-local';
  /** a picker of this kind instead of a text box: the filter takes an id, the person picks a name */
  pick?: PickKind;
}

export interface ListViewProps<P extends ListPath> {
  /** the list's route: it types the rows and the fields a column may sort by */
  path: P;
  /** calls the route with the address's query read into its types, and the page's own values (an id) */
  load: PageLoader<ListItem<P>, P>;
  /** what the loader uses besides the address (the id of the page it is on), so a change reloads the list */
  scope?: string;
  caption: string;
  /**
   * The columns, typically from the resource's columns module; a column whose `sort` is one of the
   * route's ordering fields gets a sort button in its header (checked by the compiler).
   */
  columns?: readonly Column<ListItem<P>, SortField<P>>[];
  /** columns that depend on the rows (a report's fields), instead of `columns` */
  columnsOf?: (rows: ListItem<P>[]) => readonly Column<ListItem<P>>[];
  rowKey: (row: ListItem<P>) => string | number;
  search?: boolean;
  filters?: Filter[];
  /** the orders offered in the Order by select: one the route does not take fails the typecheck */
  orderings?: readonly (readonly [Ordering<P>, string])[];
  /** changes force a reload (after a create or an action) */
  version?: number;
  /** a name for the CSV download and the call that makes it; none hides the button */
  exportName?: string;
  csv?: CsvLoader<P>;
  /** prefix for the address's parameters when two lists share a page */
  prefix?: string;
  toolbar?: ComponentChildren;
  /** rows can be selected for these bulk actions; the selection lasts while the page, filters and order stay */
  selectable?: Selectable<ListItem<P>>;
  /**
   * What the list says when it has no rows at all: what would be here and how it gets here (a
   * form above, an import, another page). With a search or filter set it says that nothing
   * matches instead, with a way to clear them.
   */
  empty?: ComponentChildren;
}

const PAGE_SIZES = ['25', '50', '100'];

export function ListView<P extends ListPath>(props: ListViewProps<P>) {
  const {
    path,
    load,
    scope = '',
    caption,
    columns = [],
    columnsOf,
    rowKey,
    filters = [],
    orderings,
    version = 0,
    exportName,
    csv,
    prefix = '',
  } = props;
  void place.value; // re-render when the address changes
  const params = query();
  const own = (name: string) => params.get(prefix + name) ?? '';
  const names = ['page', 'page_size', 'ordering', ...(props.search ? ['search'] : []), ...filters.map((filter) => filter.name)];
  const request: Record<string, string> = {};
  for (const name of names) if (own(name)) request[name] = own(name);
  if (!request.page_size) request.page_size = DEFAULT_PAGE_SIZE;
  // reloads after a bulk action, which also starts a new (empty) selection
  const [bulkRuns, setBulkRuns] = useState(0);
  const key = `${path}|${scope}|${JSON.stringify(request)}|${version}|${bulkRuns}`;
  const result = useLoad(() => unwrap(load(new AddressQuery(request), path)), key);
  const selectable = props.selectable;
  const selection = useSelection(result.data?.data ?? [], rowKey, key, selectable?.rowName ?? (() => ''));
  const [downloadError, setDownloadError] = useState<unknown>(undefined);
  const shownColumns: readonly Column<ListItem<P>, SortField<P>>[] = columnsOf ? columnsOf(result.data?.data ?? []) : columns;
  const meta = result.data?.meta;
  const page = Number(request.page ?? '1');
  const pages = meta ? Math.max(1, Math.ceil(meta.total_count / meta.page_size)) : 1;
  // the search and filters set in the address: an empty page then means "nothing matches", not "none yet"
  const narrowing = names.filter((name) => name !== 'page' && name !== 'page_size' && name !== 'ordering' && own(name));
  const set = (changes: Record<string, string | undefined>, replace = false) =>
    setQuery(Object.fromEntries(Object.entries(changes).map(([name, value]) => [prefix + name, value])), { replace });

  return (
    <div class="list">
      {props.search || filters.length || orderings ? (
        <form
          class="filters"
          role="search"
          aria-label={`Filter ${caption.toLowerCase()}`}
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const changes: Record<string, string | undefined> = { page: undefined };
            for (const name of names.filter((n) => n !== 'page' && n !== 'page_size')) changes[name] = String(data.get(name) ?? '');
            set(changes);
          }}
        >
          {props.search ? (
            <div class="field">
              <label for={`${prefix}search`}>Search</label>
              <input id={`${prefix}search`} name="search" type="search" defaultValue={own('search')} key={`s${own('search')}`} />
            </div>
          ) : null}
          {filters.map((filter) =>
            filter.pick ? (
              <Picker
                key={filter.name}
                name={filter.name}
                label={filter.label}
                kind={filter.pick}
                initialIds={[own(filter.name)]}
                onChange={(chosen) => set({ [filter.name]: chosen[0]?.value, page: undefined })}
              />
            ) : (
              <div class="field" key={filter.name}>
                <label for={`${prefix}f-${filter.name}`}>{filter.label}</label>
                {filter.options ? (
                  <select
                    id={`${prefix}f-${filter.name}`}
                    name={filter.name}
                    value={own(filter.name)}
                    onChange={(event) => set({ [filter.name]: event.currentTarget.value, page: undefined })}
                  >
                    <option value="">Any</option>
                    {filter.options.map(([value, text]) => (
                      <option key={value} value={value}>
                        {text}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={`${prefix}f-${filter.name}`}
                    name={filter.name}
                    {...({ type: filter.type ?? 'text' } as InputHTMLAttributes)}
                    defaultValue={own(filter.name)}
                    key={`${filter.name}${own(filter.name)}`}
                  />
                )}
              </div>
            ),
          )}
          {orderings ? (
            <div class="field">
              <label for={`${prefix}ordering`}>Order by</label>
              <select
                id={`${prefix}ordering`}
                name="ordering"
                value={own('ordering')}
                onChange={(event) => set({ ordering: event.currentTarget.value, page: undefined })}
              >
                <option value="">Default</option>
                {orderings.map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div class="actions">
            <button type="submit">Apply</button>
          </div>
        </form>
      ) : null}
      {props.toolbar}
      {selectable ? (
        <BulkBar
          caption={caption}
          selection={selection}
          selectable={selectable}
          onDone={() => (setBulkRuns((n) => n + 1), selectable.done?.())}
        />
      ) : null}
      <LoadedTable
        caption={caption}
        columns={shownColumns}
        loaded={result}
        rowKey={rowKey}
        expectedRows={Number(request.page_size)}
        sorting={{ ordering: request.ordering ?? '', onOrder: (ordering) => set({ ordering, page: undefined }) }}
        selection={selectable ? selection : undefined}
        empty={
          narrowing.length > 0 ? (
            <>
              Nothing matches {narrowing.length > 1 ? 'these filters' : 'this filter'}.{' '}
              <button type="button" class="link" onClick={() => set(Object.fromEntries(narrowing.map((name) => [name, undefined])))}>
                Clear {narrowing.length > 1 ? 'the filters' : 'the filter'}
              </button>
            </>
          ) : (
            (props.empty ?? 'Nothing here yet.')
          )
        }
      />
      <nav class="pager" aria-label={`${caption} pages`}>
        <button
          type="button"
          disabled={page <= 1 || result.loading}
          onClick={() => set({ page: page - 1 > 1 ? String(page - 1) : undefined })}
        >
          Previous page
        </button>
        <span>{meta ? `Page ${page} of ${pages} · ${meta.total_count} in all` : 'Loading…'}</span>
        <button type="button" disabled={!meta || page >= pages || result.loading} onClick={() => set({ page: String(page + 1) })}>
          Next page
        </button>
        <label class="inline">
          Rows per page{' '}
          <select
            value={request.page_size}
            onChange={(event) =>
              set({ page_size: event.currentTarget.value === '25' ? undefined : event.currentTarget.value, page: undefined })
            }
          >
            {PAGE_SIZES.map((size) => (
              <option key={size}>{size}</option>
            ))}
          </select>
        </label>
        {exportName && csv ? (
          <button
            type="button"
            onClick={() => {
              const { page: _page, page_size: _size, ...all } = request;
              setDownloadError(undefined);
              unwrap(csv(new AddressQuery(all), path))
                .then((blob) => saveBlob(blob, `${exportName}.csv`))
                .catch(setDownloadError);
            }}
          >
            Download CSV
          </button>
        ) : null}
      </nav>
      {downloadError ? <ErrorBanner error={downloadError} /> : null}
    </div>
  );
}
