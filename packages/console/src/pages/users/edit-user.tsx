/** The profile form on a user's page: name, role, employee id, manager, active, email notifications. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { User } from '../../api/types.ts';
import { checked, Field, Form, nullableText, optionalText, SelectField, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { can } from '../../session/me.ts';
import { role, ROLES } from './roles.ts';

export function EditUser({ user, onSaved }: { user: User; onSaved: () => void }) {
  const [saved, setSaved] = useState(false);
  const id = user.public_id;
  const writable = can('users:write');
  return (
    <section class="detail" aria-labelledby="edit-user">
      <h2 id="edit-user">Profile</h2>
      {saved ? (
        <p class="banner success" role="status">
          Saved.
        </p>
      ) : null}
      {writable ? (
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
            onSaved();
          }}
        >
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
      ) : (
        <p>
          {user.email} · {user.role} · manager {user.manager?.name ?? 'none'}
        </p>
      )}
    </section>
  );
}
