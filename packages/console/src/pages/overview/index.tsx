/**
 * Overview: the assignment insights as charts, recent imports, webhook health and, for a learner,
 * what is still open for them.
 */
import { api, unwrap } from '../../api/client.ts';
import { BarChart } from '../../components/bar-chart.tsx';
import { buckets } from '../../components/insight-buckets.ts';
import { LoadedTable } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { Link } from '../../components/link.tsx';
import { RecentJobs } from '../../components/recent-jobs.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { useLoad } from '../../components/use-load.ts';
import { assignmentContent, assignmentDue, assignmentState } from '../assignments/columns.tsx';
import { can, me, role } from '../../session/me.ts';
import { WeeklyCompletions } from './weekly-completions.tsx';

function Insights() {
  const loaded = useLoad(async () => {
    const [completion, overdue, ratings] = await Promise.all([
      unwrap(api.GET('/api/v2/insights/assignments/completion')),
      unwrap(api.GET('/api/v2/insights/assignments/overdue')),
      unwrap(api.GET('/api/v2/insights/assignments/ratings')),
    ]);
    return { completion, overdue, ratings };
  }, 'insights');
  if (loaded.error) return <ErrorBanner error={loaded.error} onRetry={loaded.reload} />;
  const data = loaded.data;
  return (
    <section aria-labelledby="insights" aria-busy={loaded.loading ? true : undefined}>
      <h2 id="insights">Assignments</h2>
      {data ? (
        <div class="grid">
          <div class="card">
            <BarChart title="Completion" bars={buckets(data.completion)} />
            <p>{String(data.completion.total)} assignments in all.</p>
          </div>
          <div class="card">
            <BarChart title="Overdue" bars={buckets(data.overdue)} />
            <p>
              {String(data.overdue.total)} overdue. <Link to="assignments?is_overdue=true">See them</Link>
            </p>
          </div>
          <div class="card">
            <BarChart title="Ratings" bars={buckets(data.ratings.distribution).map((bar) => ({ ...bar, label: `${bar.label}★` }))} />
            <p>
              {data.ratings.total} ratings
              {data.ratings.average !== null ? `, ${data.ratings.average} on average` : ''}.
            </p>
          </div>
          <div class="card wide">
            <WeeklyCompletions />
          </div>
        </div>
      ) : (
        <p role="status">Loading…</p>
      )}
    </section>
  );
}

function RecentImports() {
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/imports', { params: { query: { page_size: 5 } } })), 'imports');
  return (
    <section class="card" aria-labelledby="recent-imports">
      <h2 id="recent-imports">Recent imports</h2>
      <LoadedTable
        caption="Recent imports"
        loaded={loaded}
        expectedRows={5}
        rowKey={(item) => item.id}
        empty="No imports yet."
        columns={[
          {
            header: 'File',
            cell: (item) => (
              <ResourceLink kind="import" id={item.id}>
                {item.filename ?? item.id}
              </ResourceLink>
            ),
          },
          { header: 'Status', cell: (item) => item.status },
          { header: 'Failed rows', class: 'num', cell: (item) => item.failed },
          { header: 'When', cell: (item) => <DateCell value={item.created_at} /> },
        ]}
      />
      <h3>Bulk jobs started from this tab</h3>
      <RecentJobs />
    </section>
  );
}

/** The backlog comes from the metrics (when the token may read them); failing endpoints from the list. */
function WebhookHealth() {
  const loaded = useLoad(async () => {
    const endpoints = await unwrap(api.GET('/public_api/v2/webhooks', { params: { query: { page_size: 100 } } }));
    let backlog: number | null = null;
    if (can('metrics:read')) {
      const text = await unwrap(api.GET('/metrics', { parseAs: 'text' })).catch(() => '');
      const match = /^lectern_webhook_backlog(?:\{[^}]*\})?\s+(\d+(?:\.\d+)?)/m.exec(text);
      backlog = match ? Number(match[1]) : null;
    }
    return { endpoints: endpoints.data, total: endpoints.meta.total_count, backlog };
  }, 'webhooks');
  const failing = loaded.data?.endpoints.filter((hook) => !hook.is_active) ?? [];
  return (
    <section class="card" aria-labelledby="webhook-health">
      <h2 id="webhook-health">Webhook health</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {loaded.data ? (
        <>
          <p>
            {loaded.data.total} endpoints, {failing.length} paused or disabled
            {loaded.data.backlog !== null ? `, ${loaded.data.backlog} deliveries waiting` : ''}.
          </p>
          <ul>
            {failing.map((hook) => (
              <li key={hook.id}>
                <ResourceLink kind="webhook" id={hook.id}>
                  {hook.url}
                </ResourceLink>
                : {hook.disabled_reason ?? 'paused'}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p role="status">Loading…</p>
      )}
    </section>
  );
}

function MyWork() {
  const loaded = useLoad(
    () =>
      unwrap(
        api.GET('/api/v2/assignments', {
          params: { query: { page_size: 10, state: ['not_started', 'in_progress'], ordering: 'due_date' } },
        }),
      ),
    'mine',
  );
  return (
    <section aria-labelledby="my-work">
      <h2 id="my-work">Open assignments</h2>
      <LoadedTable
        caption="Open assignments"
        loaded={loaded}
        rowKey={(a) => a.public_id}
        empty="Nothing open."
        columns={[assignmentContent, assignmentState, assignmentDue]}
      />
      <p>
        <Link to="assignments">All assignments</Link>
      </p>
    </section>
  );
}

export function OverviewPage() {
  return (
    <>
      <h1>Overview</h1>
      <p class="muted">Signed in as {me.value?.user.email}.</p>
      {can('insights:read') ? <Insights /> : null}
      {!can('insights:read') && can('assignments:read') ? <MyWork /> : null}
      <div class="grid">
        {role.value !== 'user' && (can('users:write') || can('assignments:write')) ? <RecentImports /> : null}
        {can('webhooks:read') ? <WebhookHealth /> : null}
      </div>
    </>
  );
}
