/** Users: search and filter the directory, create, edit, deactivate and reactivate. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { User } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { checked, Field, Form, nullableText, optionalText, SelectField, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can } from '../../session/me.ts';

const ROLES = ['user', 'organizer', 'admin'] as const;
type Role = (typeof ROLES)[number];
const role = (value: string): Role => ((ROLES as readonly string[]).includes(value) ? (value as Role) : 'user');

export function UsersPage() {
  const [version, setVersion] = useState(0);
  const [creating, setCreating] = useState(false);
  const editing = query().get('edit');
  const writable = can('users:write');
  const refresh = () => setVersion(version + 1);
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
              setQuery({ edit: user.public_id });
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
      {editing ? <EditUser id={editing} writable={writable} onSaved={refresh} /> : null}
      <ListView
        path="/api/v2/users"
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
        columns={[
          { header: 'Name', cell: (user) => user.name },
          { header: 'Email', cell: (user) => user.email },
          { header: 'Role', cell: (user) => user.role },
          {
            header: 'Status',
            cell: (user) => (user.is_active ? <span class="badge ok">active</span> : <span class="badge bad">deactivated</span>),
          },
          { header: 'Joined', cell: (user) => <DateCell value={user.date_joined} /> },
          {
            header: 'Actions',
            cell: (user) => (
              <div class="actions">
                <button type="button" onClick={() => setQuery({ edit: user.public_id })} aria-label={`Edit ${user.email}`}>
                  Edit
                </button>
                {writable ? <ActiveToggle user={user} done={refresh} /> : null}
              </div>
            ),
          },
        ]}
      />
    </>
  );
}

function ActiveToggle({ user, done }: { user: User; done: () => void }) {
  const label = user.is_active ? 'Deactivate' : 'Reactivate';
  return (
    <ActionButton
      label={label}
      danger={user.is_active}
      confirm={user.is_active ? `Deactivate ${user.email}? Their tokens stop working.` : undefined}
      run={() =>
        unwrap(api.PATCH('/api/v2/users/{id}', { params: { path: { id: user.public_id } }, body: { is_active: !user.is_active } }))
      }
      done={done}
      name={`${label} ${user.email}`}
    />
  );
}

function EditUser({ id, writable, onSaved }: { id: string; writable: boolean; onSaved: () => void }) {
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/users/{id}', { params: { path: { id } } })), `${id}`);
  const [saved, setSaved] = useState(false);
  const user = loaded.data;
  return (
    <section class="detail" aria-labelledby="edit-user">
      <h2 id="edit-user">{user ? `Edit ${user.name}` : 'Edit user'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {saved ? (
        <p class="banner success" role="status">
          Saved.
        </p>
      ) : null}
      {user ? (
        <Form
          resetKey={user.public_id}
          label={`Edit ${user.email}`}
          submitLabel="Save"
          onSubmit={async (data) => {
            setSaved(false);
            await unwrap(
              api.PATCH('/api/v2/users/{id}', {
                params: { path: { id } },
                body: {
                  name: text(data, 'name'),
                  role: role(text(data, 'role')),
                  employee_id: nullableText(data, 'employee_id'),
                  manager: optionalText(data, 'manager') ?? null,
                  is_active: checked(data, 'is_active'),
                  email_notifications: checked(data, 'email_notifications'),
                },
              }),
            );
            setSaved(true);
            loaded.reload();
            onSaved();
          }}
        >
          <p class="muted">
            {user.email} · id <code>{user.public_id}</code>
          </p>
          <Field name="name" label="Name" defaultValue={user.name} disabled={!writable} />
          <SelectField name="role" label="Role" options={ROLES} value={user.role} />
          <Field name="employee_id" label="Employee id" defaultValue={user.employee_id ?? ''} />
          <Picker
            name="manager"
            label="Manager"
            kind="user"
            initial={user.manager ? [{ value: user.manager.public_id, label: user.manager.name, detail: user.manager.email }] : []}
            hint="Type their name or email; empty for none."
          />
          <Field name="is_active" label="Active" type="checkbox" defaultChecked={user.is_active} />
          <Field name="email_notifications" label="Email notifications" type="checkbox" defaultChecked={user.email_notifications} />
        </Form>
      ) : null}
      <button type="button" onClick={() => setQuery({ edit: undefined })}>
        Close
      </button>
    </section>
  );
}
