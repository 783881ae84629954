/** The Overview's trend: assignments completed in each of the last twelve weeks, drawn from their insight. */
import { api, unwrap } from '../../api/client.ts';
import { BarChart } from '../../components/bar-chart.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { useLoad } from '../../components/use-load.ts';

/** "7 Sep": the week's Monday, short enough for twelve labels side by side on a wide card. */
const weekLabel = (weekStart: string) =>
  new Date(`${weekStart}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function WeeklyCompletions() {
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/insights/assignments/weekly-completions')), 'weekly-completions');
  if (loaded.error) return <ErrorBanner error={loaded.error} onRetry={loaded.reload} />;
  const data = loaded.data;
  if (!data) return <p role="status">Loading…</p>;
  return (
    <>
      <BarChart
        title="Completions per week"
        maxWidth={880}
        bars={data.weeks.map((week) => ({ label: weekLabel(week.week_start), value: week.count }))}
      />
      <p>
        {data.total} completed in the last {data.weeks.length} weeks (weeks start on Monday, UTC).
      </p>
    </>
  );
}
