/**
 * Notifications (admins): every email Lectern owes or sent, newest first, with what it is about,
 * whom it is for and what became of it (sent, waiting, failed with the SMTP server's answer, or
 * skipped because its recipient opted out). Filters live in the address; a recipient's name
 * narrows the list to their messages, so nobody types an id.
 */
import { api } from '../../api/client.ts';
import type { AddressQuery } from '../../api/list.ts';
import type { ListItem } from '../../api/types.ts';
import { notificationKinds, notificationOrderings, notificationStatuses } from '../../api/values.ts';
import { CalendarFeed } from '../../components/calendar-feed.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { Link } from '../../components/link.tsx';
import { ListView } from '../../components/list-view.tsx';
import { query, setQuery } from '../../router.ts';

type Notification = ListItem<'/api/v2/notifications'>;

// what a console user calls each kind and status the API document names: keyed by the document's
// enums, so a value added there fails the typecheck here until it has its words
const KINDS: Record<(typeof notificationKinds)[number], string> = {
  enrolled: 'Enrolled',
  waitlisted: 'Waitlisted',
  dropped: 'Dropped',
  event_changed: 'Event changed',
  event_deleted: 'Event deleted',
  assignment_created: 'New assignment',
  assignment_due: 'Due soon',
  assignment_overdue: 'Overdue',
};
const STATUSES: Record<(typeof notificationStatuses)[number], string> = {
  pending: 'Waiting to be sent',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped (opted out)',
};

/** The list's filters and order, read from the address. */
const notificationsQuery = (q: AddressQuery, recipient: string | null) => ({
  kind: q.oneOf('kind', notificationKinds),
  status: q.oneOf('status', notificationStatuses),
  created_at__gte: q.text('created_at__gte'),
  created_at__lte: q.text('created_at__lte'),
  user: recipient ?? undefined,
  ordering: q.oneOf('ordering', notificationOrderings),
});

export function NotificationsPage() {
  const recipient = query().get('user');
  return (
    <>
      <h1>Notifications</h1>
      <p>
        The emails Lectern sends about enrollments, events and assignments. Nothing is queued while the server has no SMTP server set: the{' '}
        <Link to="about">About</Link> page says whether it has.
      </p>
      {recipient ? (
        <p role="status">
          Only the messages to one person.{' '}
          <button type="button" onClick={() => setQuery({ user: undefined, page: undefined })}>
            Show everyone's
          </button>
        </p>
      ) : null}
      <ListView
        path="/api/v2/notifications"
        empty="No email sent yet. Messages appear here once email is set up (smtp_url, see About) and someone is enrolled, assigned or reminded."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...notificationsQuery(q, recipient) } } })}
        csv={(q, path) =>
          api.GET(path, {
            params: { query: { ...notificationsQuery(q, recipient), format: 'csv' } },
            parseAs: 'blob',
          })
        }
        scope={recipient ?? ''}
        caption="Email notifications, newest first"
        exportName="notifications"
        filters={[
          { name: 'kind', label: 'About', options: notificationKinds.map((kind) => [kind, KINDS[kind]] as const) },
          { name: 'status', label: 'Status', options: notificationStatuses.map((status) => [status, STATUSES[status]] as const) },
          { name: 'created_at__gte', label: 'From', type: 'date' },
          { name: 'created_at__lte', label: 'Until', type: 'date' },
        ]}
        orderings={[
          ['-id', 'Newest first'],
          ['id', 'Oldest first'],
        ]}
        rowKey={(notification) => notification.id}
        columns={[
          { header: 'Created', cell: (notification) => <DateCell value={notification.created_at} /> },
          { header: 'About', cell: (notification) => KINDS[notification.kind] },
          {
            header: 'Recipient',
            cell: (notification) => (
              // in an .actions box: a cell holding a button is never cut short
              <span class="actions">
                <button
                  type="button"
                  class="link"
                  title={`Only the messages to ${notification.user.name}`}
                  onClick={() => setQuery({ user: notification.user.public_id, page: undefined })}
                >
                  {notification.user.name}
                  <br />
                  <span class="hint">{notification.user.email}</span>
                </button>
              </span>
            ),
          },
          { header: 'Subject', cell: (notification) => notification.subject },
          { header: 'Status', cell: (notification) => <Status notification={notification} /> },
          { header: 'Attempts', class: 'num', cell: (notification) => notification.attempts },
          { header: 'Sent', cell: (notification) => <DateCell value={notification.sent_at} /> },
        ]}
      />
      <CalendarFeed />
    </>
  );
}

function Status({ notification }: { notification: Notification }) {
  const { status, last_error: error } = notification;
  const badge = status === 'sent' ? 'badge ok' : status === 'failed' ? 'badge bad' : 'badge';
  return (
    <>
      <span class={badge}>{STATUSES[status]}</span>
      {error ? <span class="hint"> {error}</span> : null}
    </>
  );
}
