/**
 * Bulk jobs: every job the caller may see (admins all, others their own), and a job's status
 * (followed live while it runs) with its per-item results.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { BulkJob, ListItem } from '../../api/types.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';

const KINDS = {
  users: { status: '/api/v2/users/bulk/{id}', items: '/api/v2/users/bulk/{id}/items' },
  assignments: { status: '/api/v2/assignments/bulk/{id}', items: '/api/v2/assignments/bulk/{id}/items' },
  enrollments: { status: '/api/v2/enrollments/bulk/{id}', items: '/api/v2/enrollments/bulk/{id}/items' },
  events: { status: '/api/v2/events/bulk/{id}', items: '/api/v2/events/bulk/{id}/items' },
  'event-series': { status: '/api/v2/event-series/bulk/{id}', items: '/api/v2/event-series/bulk/{id}/items' },
} as const;
type Kind = keyof typeof KINDS;
const isKind = (value: string | null): value is Kind => value !== null && value in KINDS;

export function BulkJobsPage() {
  const params = query();
  const kind = params.get('kind');
  const id = params.get('id');
  return (
    <>
      <h1>Bulk jobs</h1>
      {isKind(kind) && id ? <Job kind={kind} id={id} /> : null}
      <ListView
        path="/api/v2/bulk-jobs"
        prefix="jobs_"
        caption="Bulk jobs, newest first"
        filters={[
          { name: 'kind', label: 'Kind', options: Object.keys(KINDS).map((name) => [name, name] as const) },
          { name: 'status', label: 'Status', options: jobStatuses.map((name) => [name, name] as const) },
        ]}
        orderings={[
          ['-created_at', 'Newest first'],
          ['created_at', 'Oldest first'],
        ]}
        rowKey={(job) => job.id}
        columns={[
          {
            header: 'Job',
            cell: (job) => (
              <button type="button" aria-label={`Open ${job.kind} job ${job.id}`} onClick={() => setQuery({ kind: job.kind, id: job.id })}>
                {job.kind}
              </button>
            ),
          },
          { header: 'Status', cell: (job) => <StatusBadge status={job.status} /> },
          { header: 'Items', class: 'num', cell: (job) => job.total },
          { header: 'Succeeded', class: 'num', cell: (job) => job.succeeded },
          { header: 'Failed', class: 'num', cell: (job) => job.failed },
          { header: 'By', cell: (job) => job.created_by?.email ?? 'command line' },
          { header: 'Started', cell: (job) => <DateCell value={job.created_at} /> },
        ]}
      />
    </>
  );
}

type JobStatus = ListItem<'/api/v2/bulk-jobs'>['status'];
// every status the API names, in the order a job goes through them
const jobStatuses: readonly JobStatus[] = ['pending', 'processing', 'completed', 'failed'];

function StatusBadge({ status }: { status: JobStatus }) {
  return <span class={status === 'completed' ? 'badge ok' : status === 'failed' ? 'badge bad' : 'badge'}>{status}</span>;
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
    <section class="detail" aria-labelledby="job-title">
      <h2 id="job-title">
        Job {id} ({kind})
      </h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
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
          <h3>Items</h3>
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
              { header: 'Id', cell: (item) => (item.public_id ? <code>{item.public_id}</code> : '') },
              { header: 'Error', cell: (item) => (item.error ? `${item.error.code}: ${item.error.message}` : '') },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
