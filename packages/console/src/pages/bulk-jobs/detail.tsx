/** One bulk job's page (bulk-jobs/<kind>/<id>): its status, followed live while it runs, counts and per-item results. */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { BulkJob, ListItem } from '../../api/types.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ListView } from '../../components/list-view.tsx';
import { type DetailKind, ResourceLink } from '../../components/resource-link.tsx';
import { useLoad } from '../../components/use-load.ts';

export const KINDS = {
  users: { status: '/api/v2/users/bulk/{id}', items: '/api/v2/users/bulk/{id}/items' },
  assignments: { status: '/api/v2/assignments/bulk/{id}', items: '/api/v2/assignments/bulk/{id}/items' },
  enrollments: { status: '/api/v2/enrollments/bulk/{id}', items: '/api/v2/enrollments/bulk/{id}/items' },
  events: { status: '/api/v2/events/bulk/{id}', items: '/api/v2/events/bulk/{id}/items' },
  'event-series': { status: '/api/v2/event-series/bulk/{id}', items: '/api/v2/event-series/bulk/{id}/items' },
} as const;
type Kind = keyof typeof KINDS;
const isKind = (value: string | null): value is Kind => value !== null && value in KINDS;

type JobStatus = ListItem<'/api/v2/bulk-jobs'>['status'];
// every status the API names, in the order a job goes through them
export const jobStatuses: readonly JobStatus[] = ['pending', 'processing', 'completed', 'failed'];

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
  const get = api.GET as unknown as (
    path: string,
    init: { params: { path: { id: string } } },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const loaded = useLoad(() => unwrap(get(KINDS[kind].status, { params: { path: { id } } })) as Promise<BulkJob>, `${kind}|${id}|${tick}`);
  const job = loaded.data;
  const running = job ? job.status === 'pending' || job.status === 'processing' : false;
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setTick((n) => n + 1), 1000);
    return () => clearTimeout(timer);
  }, [job, running]);
  return (
    <DetailPage title={job ? `Job ${id} (${kind})` : undefined} back={['bulk-jobs', 'Bulk jobs']} id={id} loaded={loaded}>
      {job ? (
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
            path={KINDS[kind].items}
            pathParams={{ id }}
            caption="Job items"
            version={running ? tick : 0}
            filters={[
              {
                name: 'status',
                label: 'Item status',
                options: [
                  ['failed', 'failed'],
                  ['succeeded', 'succeeded'],
                ],
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
      ) : null}
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
