/** The columns of a table of assignments, written once for the Assignments list, a user's page, a content item's page and the overview. */
import type { Assignment } from '../../api/types.ts';
import type { Column } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';

const label = (value: string) => value.replace('_', ' ');

/** The person by email (the Assignments list). */
export const assignmentUser: Column<Assignment> = {
  header: 'User',
  cell: (a) => (
    <ResourceLink kind="user" id={a.user.public_id}>
      {a.user.email}
    </ResourceLink>
  ),
};
/** The person by name, with their email in the next column (a content item's page). */
export const assignmentPerson: Column<Assignment> = {
  header: 'Person',
  cell: (a) => (
    <ResourceLink kind="user" id={a.user.public_id}>
      {a.user.name}
    </ResourceLink>
  ),
};
export const assignmentEmail: Column<Assignment> = { header: 'Email', cell: (a) => a.user.email };
export const assignmentContent: Column<Assignment> = {
  header: 'Content',
  cell: (a) => (
    <ResourceLink kind="content" id={a.content_item.public_id}>
      {a.content_item.name}
    </ResourceLink>
  ),
};
export const assignmentType: Column<Assignment> = { header: 'Type', cell: (a) => label(a.content_item.content_type) };
export const assignmentState: Column<Assignment> = {
  header: 'State',
  cell: (a) => <span class={a.state === 'completed' ? 'badge ok' : 'badge'}>{label(a.state)}</span>,
};
export const assignmentProgress: Column<Assignment> = {
  header: 'Progress',
  cell: (a) => <progress max={1} value={a.progress} aria-label={`Progress ${Math.round(a.progress * 100)}%`} />,
};
export const assignmentDue: Column<Assignment, 'due_date'> = {
  header: 'Due',
  sort: 'due_date',
  cell: (a) =>
    a.due_date ? (
      <span class={a.is_overdue ? 'badge bad' : undefined}>
        {a.due_date}
        {a.is_overdue ? ' overdue' : ''}
      </span>
    ) : (
      <span class="muted">—</span>
    ),
};
export const assignmentCompleted: Column<Assignment> = { header: 'Completed', cell: (a) => <DateCell value={a.completed_datetime} /> };
