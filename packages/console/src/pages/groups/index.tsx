/** Groups: the list and creating one; each group's own page (groups/<id>) is detail.tsx. */
import { api, unwrap } from '../../api/client.ts';
import type { AddressQuery } from '../../api/list.ts';
import { groupOrderings } from '../../api/values.ts';
import { listOrDetail } from '../../components/detail-route.tsx';
import { CreateForm, Field, optionalText, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { detailAddress } from '../../components/resource-link.tsx';
import { useVersion } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { can, role } from '../../session/me.ts';
import { groupCreated, groupMembers, groupName, groupOwners, groupSource } from './columns.tsx';
import { GroupDetail } from './detail.tsx';

/** The list's search and order, read from the address. */
const groupsQuery = (q: AddressQuery) => ({ search: q.text('search'), ordering: q.oneOf('ordering', groupOrderings) });

export const GroupsPage = listOrDetail(GroupList, GroupDetail);

function GroupList() {
  const [version, refresh] = useVersion();
  return (
    <>
      <h1>Groups</h1>
      {can('groups:write') && role.value === 'admin' ? (
        <CreateForm
          noun="group"
          create={(data) =>
            unwrap(api.POST('/api/v2/groups', { body: { name: text(data, 'name'), source: optionalText(data, 'source') } }))
          }
          onCreated={(group) => {
            refresh();
            navigate(detailAddress('group', group.public_id));
          }}
        >
          <Field name="name" label="Name" required />
          <Field
            name="source"
            label="Source"
            hint="Where the group comes from, for example an HR system. Left empty, the group is native to Lectern."
          />
        </CreateForm>
      ) : null}
      <ListView
        path="/api/v2/groups"
        empty="No groups yet. Add one above, or let your identity provider create them through SCIM."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...groupsQuery(q) } } })}
        csv={(q, path) => api.GET(path, { params: { query: { ...groupsQuery(q), format: 'csv' } }, parseAs: 'blob' })}
        caption="Groups"
        version={version}
        exportName="groups"
        search
        orderings={[
          ['name', 'Name'],
          ['-member_count', 'Most members'],
          ['-created', 'Newest first'],
        ]}
        rowKey={(group) => group.public_id}
        columns={[groupName, groupSource, groupMembers, groupOwners, groupCreated]}
      />
    </>
  );
}
