/**
 * Bulk jobs: a job's status (followed live while it runs) and its per-item results. The API has
 * no list of jobs, so a job is opened by its kind and id, as the pages that start one link to.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { BulkJob } from '../../api/types.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { ListView } from '../../components/list-view.tsx';
import { RecentJobs } from '../../components/recent-jobs.tsx';
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
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          setQuery({ kind: String(data.get('kind')), id: String(data.get('id')).trim(), page: undefined });
        }}
      >
        <div class="field">
          <label for="job-kind">Kind</label>
          <select id="job-kind" name="kind" defaultValue={kind ?? 'users'}>
            {Object.keys(KINDS).map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="job-id">Job id</label>
          <input id="job-id" name="id" defaultValue={id ?? ''} key={id ?? ''} required />
        </div>
        <div class="actions">
          <button type="submit">Open job</button>
        </div>
      </form>
      {isKind(kind) && id ? (
        <Job kind={kind} id={id} />
      ) : (
        <p class="muted">Bulk jobs are started by assigning to many users and by the API; open one by its id to follow it.</p>
      )}
      <h2>Started from this tab</h2>
      <RecentJobs />
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
    <section class="detail" aria-labelledby="job-title">
      <h2 id="job-title">
        Job {id} ({kind})
      </h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {job ? (
        <>
          <p>
            <span class={job.status === 'completed' ? 'badge ok' : job.status === 'failed' ? 'badge bad' : 'badge'}>{job.status}</span>{' '}
            started <DateCell value={job.created_at} />
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
