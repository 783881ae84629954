/** The columns of a table of users, written once for the Users list and every page that lists people (a group's members). */
import type { User } from '../../api/types.ts';
import type { Column } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { ActiveToggle } from './active-toggle.tsx';

export const userName: Column<User, 'name'> = {
  header: 'Name',
  sort: 'name',
  cell: (user) => (
    <ResourceLink kind="user" id={user.public_id}>
      {user.name}
    </ResourceLink>
  ),
};
export const userEmail: Column<User, 'email'> = { header: 'Email', sort: 'email', cell: (user) => user.email };
export const userRole: Column<User, 'role'> = { header: 'Role', sort: 'role', cell: (user) => user.role };
export const userStatus: Column<User> = {
  header: 'Status',
  cell: (user) => (user.is_active ? <span class="badge ok">active</span> : <span class="badge bad">deactivated</span>),
};
export const userJoined: Column<User, 'date_joined'> = {
  header: 'Joined',
  sort: 'date_joined',
  cell: (user) => <DateCell value={user.date_joined} />,
};
export const userId: Column<User> = { header: 'Id', cell: (user) => <code>{user.public_id}</code> };

/** Deactivate or reactivate, for a token that may write users. */
export function userActiveToggle(writable: boolean, done: () => void): Column<User> {
  return { header: 'Actions', cell: (user) => <div class="actions">{writable ? <ActiveToggle user={user} done={done} /> : null}</div> };
}
