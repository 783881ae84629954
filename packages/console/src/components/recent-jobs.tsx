import { recentJobs } from '../session/recent-jobs.ts';
import { DateCell } from './date-cell.tsx';
import { Link } from './link.tsx';

/** Links to the bulk jobs this tab started, newest first. */
export function RecentJobs() {
  const jobs = recentJobs.value;
  if (!jobs.length) return <p class="muted">No bulk jobs started from this tab yet.</p>;
  return (
    <ul>
      {jobs.map((job) => (
        <li key={job.id}>
          <Link to={`bulk-jobs?kind=${job.kind}&id=${job.id}`}>{job.what}</Link> (<DateCell value={job.at} />)
        </li>
      ))}
    </ul>
  );
}
