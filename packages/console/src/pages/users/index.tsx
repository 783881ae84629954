/** Users: search and filter the directory, create, deactivate and reactivate; a user's own page (users/<id>) is detail.tsx. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import { listOrDetail } from '../../components/detail-route.tsx';
import { Field, Form, nullableText, SelectField, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { detailAddress } from '../../components/resource-link.tsx';
import { useVersion } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { can } from '../../session/me.ts';
import { userBulkActions } from './bulk-actions.tsx';
import { loadUsers, usersQuery } from './list-load.ts';
import { userActiveToggle, userEmail, userJoined, userName, userRole, userStatus } from './columns.tsx';
import { UserDetail } from './detail.tsx';
import { role, ROLES } from './roles.ts';

export const UsersPage = listOrDetail(UserList, UserDetail);

function UserList() {
  const [version, refresh] = useVersion();
  const [creating, setCreating] = useState(false);
  const writable = can('users:write');
  return (
    <>
      <h1>Users</h1>
      {writable ? (
        <div class="actions">
          <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            New user
          </button>
        </div>
      ) : null}
      {creating ? (
        <>
          <h2>New user</h2>
          <Form
            label="New user"
            submitLabel="Create user"
            resetOnSuccess
            onSubmit={async (data) => {
              const user = await unwrap(
                api.POST('/api/v2/users', {
                  body: {
                    email: text(data, 'email'),
                    name: text(data, 'name'),
                    role: role(text(data, 'role')),
                    employee_id: nullableText(data, 'employee_id'),
                    manager: nullableText(data, 'manager'),
                  },
                }),
              );
              setCreating(false);
              refresh();
              navigate(detailAddress('user', user.public_id));
            }}
          >
            <Field name="email" label="Email" type="email" required />
            <Field name="name" label="Name" required />
            <SelectField name="role" label="Role" options={ROLES} value="user" />
            <Field name="employee_id" label="Employee id" />
            <Picker name="manager" label="Manager" kind="user" hint="Optional: type their name or email." />
          </Form>
        </>
      ) : null}
      <ListView
        path="/api/v2/users"
        empty="No users yet. Add one above, import a CSV of them on the Imports page, or let your identity provider create them through SCIM (see About)."
        load={loadUsers}
        csv={(q, path) => api.GET(path, { params: { query: { ...usersQuery(q), format: 'csv' } }, parseAs: 'blob' })}
        caption="Users"
        version={version}
        exportName="users"
        search
        filters={[
          { name: 'role', label: 'Role', options: ROLES.map((r) => [r, r] as const) },
          {
            name: 'is_active',
            label: 'Active',
            options: [
              ['true', 'Active'],
              ['false', 'Deactivated'],
            ],
          },
          { name: 'group', label: 'Group', pick: 'group' },
        ]}
        orderings={[
          ['name', 'Name'],
          ['email', 'Email'],
          ['-date_joined', 'Newest first'],
          ['date_joined', 'Oldest first'],
        ]}
        rowKey={(user) => user.public_id}
        selectable={writable ? userBulkActions : undefined}
        columns={[userName, userEmail, userRole, userStatus, userJoined, userActiveToggle(writable, refresh)]}
      />
    </>
  );
}
