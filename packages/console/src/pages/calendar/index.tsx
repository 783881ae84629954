/** Calendar: the signed-in person's own feed address, for whoever enrolls in events (learners included). */
import { CalendarFeed } from '../../components/calendar-feed.tsx';

export function CalendarPage() {
  return (
    <>
      <h1>Calendar</h1>
      <CalendarFeed />
    </>
  );
}
