/** One bulk job's page (bulk-jobs/<kind>/<id>): its status, followed live while it runs, counts and per-item results. */
import { useEffect, useState } from 'preact/hooks';
import { api, type Outcome, unwrap } from '../../api/client.ts';
import type { AddressQuery, Page } from '../../api/list.ts';
import type { BulkItem, BulkJob, ListItem } from '../../api/types.ts';
import { bulkItemStatuses, bulkJobStatuses } from '../../api/values.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ListView } from '../../components/list-view.tsx';
import { type DetailKind, ResourceLink } from '../../components/resource-link.tsx';
import { useLoad } from '../../components/use-load.ts';

type Kind = ListItem<'/api/v2/bulk-jobs'>['kind'];
/** the query every kind's item list takes: its page, its order and an item status */
const itemsQuery = (q: AddressQuery) => ({ ...q.paging, status: q.oneOf('status', bulkItemStatuses) });

/** Each kind's own routes for a job and its items, called on a path the compiler knows. */
interface JobRoutes {
  job: (id: string) => Promise<Outcome<BulkJob>>;
  items: (id: string, q: AddressQuery) => Promise<Outcome<Page<BulkItem>>>;
}
const KINDS: Record<Kind, JobRoutes> = {
  users: {
    job: (id) => api.GET('/api/v2/users/bulk/{id}', { params: { path: { id } } }),
    items: (id, q) => api.GET('/api/v2/users/bulk/{id}/items', { params: { path: { id }, query: itemsQuery(q) } }),
  },
  assignments: {
    job: (id) => api.GET('/api/v2/assignments/bulk/{id}', { params: { path: { id } } }),
    items: (id, q) => api.GET('/api/v2/assignments/bulk/{id}/items', { params: { path: { id }, query: itemsQuery(q) } }),
  },
  enrollments: {
    job: (id) => api.GET('/api/v2/enrollments/bulk/{id}', { params: { path: { id } } }),
    items: (id, q) => api.GET('/api/v2/enrollments/bulk/{id}/items', { params: { path: { id }, query: itemsQuery(q) } }),
  },
  events: {
    job: (id) => api.GET('/api/v2/events/bulk/{id}', { params: { path: { id } } }),
    items: (id, q) => api.GET('/api/v2/events/bulk/{id}/items', { params: { path: { id }, query: itemsQuery(q) } }),
  },
  'event-series': {
    job: (id) => api.GET('/api/v2/event-series/bulk/{id}', { params: { path: { id } } }),
    items: (id, q) => api.GET('/api/v2/event-series/bulk/{id}/items', { params: { path: { id }, query: itemsQuery(q) } }),
  },
};
const isKind = (value: string | null): value is Kind => value !== null && value in KINDS;

type JobStatus = ListItem<'/api/v2/bulk-jobs'>['status'];
// every status the API names, in the order a job goes through them
export const jobStatuses: readonly JobStatus[] = bulkJobStatuses;

export function StatusBadge({ status }: { status: JobStatus }) {
  return <span class={status === 'completed' ? 'badge ok' : status === 'failed' ? 'badge bad' : 'badge'}>{status}</span>;
}

export function JobDetail({ segments: [kind = '', id = ''] }: { segments: string[] }) {
  return isKind(kind) ? (
    <Job kind={kind} id={id} />
  ) : (
    <>
      <h1>Not found</h1>
      <p>There is no kind of bulk job called “{kind}”.</p>
    </>
  );
}

function Job({ kind, id }: { kind: Kind; id: string }) {
  const [tick, setTick] = useState(0);
  const loaded = useLoad(() => unwrap(KINDS[kind].job(id)), `${kind}|${id}|${tick}`);
  const job = loaded.data;
  const running = job ? job.status === 'pending' || job.status === 'processing' : false;
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setTick((n) => n + 1), 1000);
    return () => clearTimeout(timer);
  }, [job, running]);
  return (
    <DetailPage loaded={loaded} title={() => `Job ${id} (${kind})`} back={['bulk-jobs', 'Bulk jobs']} id={id}>
      {(job) => (
        <>
          <p>
            <StatusBadge status={job.status} /> started <DateCell value={job.created_at} />
            {job.completed_at ? (
              <>
                , finished <DateCell value={job.completed_at} />
              </>
            ) : null}
          </p>
          <label for="job-progress">Progress</label>
          <progress id="job-progress" max={job.total || 1} value={job.processed} />
          <p role="status">
            {job.processed} of {job.total} processed · {job.succeeded} succeeded · {job.failed} failed
          </p>
          {job.error_message ? (
            <p class="banner error" role="alert">
              {job.error_message}
            </p>
          ) : null}
          <h2>Items</h2>
          <ListView
            path="/api/v2/users/bulk/{id}/items"
            load={(q) => KINDS[kind].items(id, q)}
            scope={`${kind}|${id}`}
            caption="Job items"
            version={running ? tick : 0}
            filters={[
              {
                name: 'status',
                label: 'Item status',
                options: bulkItemStatuses.map((status) => [status, status] as const),
              },
            ]}
            rowKey={(item) => item.index}
            columns={[
              { header: 'Item', class: 'num', cell: (item) => item.index },
              {
                header: 'Status',
                cell: (item) => <span class={item.status === 'succeeded' ? 'badge ok' : 'badge bad'}>{item.status}</span>,
              },
              { header: 'Made or changed', cell: (item) => (item.public_id ? <ItemLink kind={kind} id={item.public_id} /> : '') },
              { header: 'Error', cell: (item) => (item.error ? `${item.error.code}: ${item.error.message}` : '') },
            ]}
          />
        </>
      )}
    </DetailPage>
  );
}

const ITEM_PAGES: Partial<Record<Kind, DetailKind>> = { users: 'user', events: 'event', 'event-series': 'series' };

/** The record an item made or changed: a link to its page where it has one, else its id. */
function ItemLink({ kind, id }: { kind: Kind; id: string }) {
  const page = ITEM_PAGES[kind];
  return page ? (
    <ResourceLink kind={page} id={id}>
      <code>{id}</code>
    </ResourceLink>
  ) : (
    <code>{id}</code>
  );
}
