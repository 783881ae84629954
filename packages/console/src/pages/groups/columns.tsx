/** The columns of a table of groups, written once for the Groups list and every page that lists groups (a user's groups). */
import type { Group } from '../../api/types.ts';
import type { Column } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';

export const groupName: Column<Group, 'name'> = {
  header: 'Name',
  sort: 'name',
  cell: (group) => (
    <ResourceLink kind="group" id={group.public_id}>
      {group.name}
    </ResourceLink>
  ),
};
export const groupSource: Column<Group, 'source'> = { header: 'Source', sort: 'source', cell: (group) => group.source ?? '' };
export const groupMembers: Column<Group, 'member_count'> = {
  header: 'Members',
  class: 'num',
  sort: 'member_count',
  cell: (group) => group.member_count,
};
export const groupOwners: Column<Group> = { header: 'Owners', cell: (group) => group.owners.map((owner) => owner.name).join(', ') };
export const groupCreated: Column<Group, 'created'> = {
  header: 'Created',
  sort: 'created',
  cell: (group) => <DateCell value={group.created} />,
};
