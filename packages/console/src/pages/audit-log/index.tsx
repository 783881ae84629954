/**
 * The audit log: who changed what and when, newest first, each update as `field: from → to`.
 * Filters and the page position (a cursor) live in the address, so a view can be shared and
 * Back returns to the previous page. An actor or a resource is chosen by clicking it in an entry,
 * so nobody types an id.
 */
import { api, unwrap } from '../../api/client.ts';
import { auditActions, auditResourceTypes } from '../../api/values.ts';
import { LoadedTable } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { useLoad } from '../../components/use-load.ts';
import { place, query, setQuery } from '../../router.ts';
import { Changes, type AuditEntry } from './changes.tsx';

const TEXT_FILTERS = ['actor', 'resource_id', 'occurred_at__gte', 'occurred_at__lte', 'cursor'] as const;
type FilterName = (typeof TEXT_FILTERS)[number] | 'action' | 'resource_type';

/** `value` when the list holds it: a hand-edited address with a value the log never records filters by nothing. */
const known = <T extends string>(values: readonly T[], value: string | null): T | undefined => values.find((item) => item === value);

/** A datetime-local value (the browser's time) as the instant the API filters by. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);
/** An instant from the address back as a datetime-local value in the browser's time. */
function localValue(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function AuditLogPage() {
  void place.value; // re-render when the address changes
  const params = query();
  const request: Partial<Record<(typeof TEXT_FILTERS)[number], string>> & {
    action?: (typeof auditActions)[number];
    resource_type?: (typeof auditResourceTypes)[number];
  } = {};
  for (const name of TEXT_FILTERS) {
    const value = params.get(name);
    if (value) request[name] = value;
  }
  const action = known(auditActions, params.get('action'));
  if (action) request.action = action;
  const resourceType = known(auditResourceTypes, params.get('resource_type'));
  if (resourceType) request.resource_type = resourceType;
  const key = JSON.stringify(request);
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/audit-log', { params: { query: { ...request, page_size: 50 } } })), key);
  const page = loaded.data;
  const set = (changes: Partial<Record<FilterName, string | undefined>>) => setQuery({ ...changes, cursor: undefined });
  return (
    <>
      <h1>Audit log</h1>
      <form
        class="filters"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const value = (name: string) => String(data.get(name) ?? '').trim() || undefined;
          set({
            action: value('action'),
            resource_type: value('resource_type'),
            occurred_at__gte: instant(value('from') ?? ''),
            occurred_at__lte: instant(value('until') ?? ''),
          });
        }}
      >
        {/* keyed by the address, so Back and a shared link redraw them with its values */}
        <FilterChoice key={`a${key}`} name="action" label="Action" value={request.action} options={auditActions} />
        <FilterChoice
          key={`t${key}`}
          name="resource_type"
          label="Resource type"
          value={request.resource_type}
          options={auditResourceTypes}
        />
        <FilterInput key={`f${key}`} name="from" label="From" type="datetime-local" value={localValue(params.get('occurred_at__gte'))} />
        <FilterInput key={`u${key}`} name="until" label="Until" type="datetime-local" value={localValue(params.get('occurred_at__lte'))} />
        <div class="actions">
          <button type="submit">Apply</button>
        </div>
      </form>
      <Chosen
        label="By"
        value={page?.data.find((entry) => entry.actor?.public_id === request.actor)?.actor?.email ?? request.actor}
        clear={() => set({ actor: undefined })}
      />
      <Chosen
        label="Resource"
        value={request.resource_id && `${request.resource_type ?? ''} ${request.resource_id}`.trim()}
        clear={() => set({ resource_id: undefined })}
      />
      <LoadedTable<AuditEntry>
        caption="Audit log entries, newest first"
        loaded={loaded}
        rowKey={(entry) => entry.id}
        empty="No change matches these filters."
        columns={[
          { header: 'When', cell: (entry) => <DateCell value={entry.occurred_at} /> },
          {
            header: 'By',
            cell: (entry) =>
              entry.actor ? (
                <button
                  type="button"
                  class="link"
                  title="Only the changes this person made"
                  onClick={() => set({ actor: entry.actor!.public_id })}
                >
                  {entry.actor.email}
                </button>
              ) : (
                <span class="muted">command line</span>
              ),
          },
          { header: 'Action', cell: (entry) => <code>{entry.action}</code> },
          {
            header: 'Resource',
            cell: (entry) => (
              <span class="actions">
                <button
                  type="button"
                  class="link"
                  title="Only the changes to this resource"
                  onClick={() => set({ resource_type: entry.resource.type, resource_id: entry.resource.public_id })}
                >
                  {entry.resource.type} <code>{entry.resource.public_id}</code>
                </button>
              </span>
            ),
          },
          { header: 'Changes', cell: (entry) => <Changes changes={entry.changes} /> },
        ]}
      />
      <div class="pager">
        {request.cursor ? (
          <button type="button" onClick={() => history.back()}>
            Newer entries
          </button>
        ) : null}
        {page?.meta.next_cursor ? (
          <button type="button" onClick={() => setQuery({ cursor: page.meta.next_cursor ?? undefined })}>
            Older entries
          </button>
        ) : null}
      </div>
    </>
  );
}

/** A filter chosen by clicking an entry, with the way back to every entry. */
function Chosen({ label, value, clear }: { label: string; value: string | undefined; clear: () => void }) {
  if (!value) return null;
  return (
    <p role="status">
      {label}: <strong>{value}</strong>{' '}
      <button type="button" onClick={clear}>
        Any {label.toLowerCase()}
      </button>
    </p>
  );
}

function FilterInput(props: { name: string; label: string; value: string; type: 'datetime-local' }) {
  const id = `audit-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input id={id} name={props.name} type={props.type} defaultValue={props.value} />
    </div>
  );
}

/** One of the values the API document lists for a filter (the log's actions, its resource types), or any. */
function FilterChoice(props: { name: string; label: string; value: string | undefined; options: readonly string[] }) {
  const id = `audit-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} defaultValue={props.value ?? ''}>
        <option value="">Any</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
