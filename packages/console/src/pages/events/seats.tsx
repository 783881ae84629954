/** Seats and wait-list places of an event, as text in lists and as bars per attendance method on its page. */
import type { Event } from '../../api/types.ts';

export const seats = (limit: number, taken: number) => (limit === 0 ? `${taken} (no limit)` : `${taken} / ${limit}`);

function Bar({ label, taken, limit }: { label: string; taken: number; limit: number }) {
  const text = limit === 0 ? `${taken} taken, no limit` : `${taken} of ${limit} taken`;
  return (
    <div class="seat-bar">
      <span>
        {label}: {text}
      </span>
      {/* a limit of 0 means no limit: there is no whole to fill */}
      {limit > 0 ? <meter min={0} max={limit} value={taken} aria-label={`${label}: ${text}`} /> : null}
    </div>
  );
}

export function SeatBars({ event }: { event: Event }) {
  const methods = [
    ['In person', event.is_local, event.enrollment_limit, event.wait_list_limit, event.enrollment_counts.in_person],
    ['Online', event.is_online, event.online_enrollment_limit, event.online_wait_list_limit, event.enrollment_counts.online],
  ] as const;
  return (
    <div class="seat-bars">
      {methods
        .filter(([, offered]) => offered)
        .map(([label, , limit, waitLimit, counts]) => (
          <div key={label}>
            <Bar label={`${label} seats`} taken={counts.enrolled} limit={limit} />
            <Bar label={`${label} wait list`} taken={counts.waitlisted} limit={waitLimit} />
          </div>
        ))}
    </div>
  );
}
