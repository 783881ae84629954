/** Bulk jobs: every job the caller may see (admins all, others their own); a job's page (bulk-jobs/<kind>/<id>) is detail.tsx. */
import { api } from '../../api/client.ts';
import type { AddressQuery } from '../../api/list.ts';
import { bulkJobKinds, bulkJobOrderings } from '../../api/values.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { listOrDetail } from '../../components/detail-route.tsx';
import { ListView } from '../../components/list-view.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { JobDetail, jobStatuses, StatusBadge } from './detail.tsx';

export const BulkJobsPage = listOrDetail(BulkJobList, JobDetail);

/** The list's filters and order, read from the address. */
const jobsQuery = (q: AddressQuery) => ({
  kind: q.oneOf('kind', bulkJobKinds),
  status: q.oneOf('status', jobStatuses),
  ordering: q.oneOf('ordering', bulkJobOrderings),
});

function BulkJobList() {
  return (
    <>
      <h1>Bulk jobs</h1>
      <ListView
        path="/api/v2/bulk-jobs"
        empty="No bulk jobs yet. They start when many users, assignments, enrollments or events are sent at once, through the API or this console."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...jobsQuery(q) } } })}
        prefix="jobs_"
        caption="Bulk jobs, newest first"
        filters={[
          { name: 'kind', label: 'Kind', options: bulkJobKinds.map((name) => [name, name] as const) },
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
              <ResourceLink kind="bulk-job" id={[job.kind, job.id]}>
                {job.kind} job {job.id}
              </ResourceLink>
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
