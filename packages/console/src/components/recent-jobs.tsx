import { recentJobs } from '../session/recent-jobs.ts';
import { DateCell } from './date-cell.tsx';
import { ResourceLink } from './resource-link.tsx';

/** Links to the bulk jobs this tab started, newest first. */
export function RecentJobs() {
  const jobs = recentJobs.value;
  if (!jobs.length) return <p class="muted">No bulk jobs started from this tab yet.</p>;
  return (
    <ul>
      {jobs.map((job) => (
        <li key={job.id}>
          <ResourceLink kind="bulk-job" id={[job.kind, job.id]}>
            {job.what}
          </ResourceLink>{' '}
          (<DateCell value={job.at} />)
        </li>
      ))}
    </ul>
  );
}
