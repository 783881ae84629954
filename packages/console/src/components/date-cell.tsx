import { localDate, localDateTime } from './local-time.ts';

/** A date in the browser's time zone, with its UTC value on hover (title) and to machines (datetime). */
export function DateCell({ value, dateOnly }: { value: string | null | undefined; dateOnly?: boolean }) {
  if (!value) return <span class="muted">—</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  const local = dateOnly ? localDate(date) : localDateTime(date);
  return (
    <time
      dateTime={date.toISOString()}
      title={`${date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '')} UTC`}
    >
      {local}
    </time>
  );
}
