/** Groups: list, create, rename, delete, and membership (add, remove, replace with the API's confirmations). */
import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { checked, Field, Form, list, optionalText, picked, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can, role } from '../../session/me.ts';

export function GroupsPage() {
  const [version, setVersion] = useState(0);
  const open = query().get('group');
  const refresh = () => setVersion(version + 1);
  return (
    <>
      <h1>Groups</h1>
      {can('groups:write') && role.value === 'admin' ? (
        <details>
          <summary>New group</summary>
          <Form
            label="New group"
            submitLabel="Create group"
            resetOnSuccess
            onSubmit={async (data) => {
              const group = await unwrap(
                api.POST('/api/v2/groups', { body: { name: text(data, 'name'), source: optionalText(data, 'source') } }),
              );
              refresh();
              setQuery({ group: group.public_id });
            }}
          >
            <Field name="name" label="Name" required />
            <Field
              name="source"
              label="Source"
              hint="Where the group comes from, for example an HR system. Left empty, the group is native to Lectern."
            />
          </Form>
        </details>
      ) : null}
      {open ? <GroupDetail id={open} onChanged={refresh} /> : null}
      <ListView
        path="/api/v2/groups"
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
        columns={[
          { header: 'Name', cell: (group) => group.name },
          { header: 'Source', cell: (group) => group.source ?? '' },
          { header: 'Members', class: 'num', cell: (group) => group.member_count },
          { header: 'Owners', cell: (group) => group.owners.map((owner) => owner.name).join(', ') },
          { header: 'Created', cell: (group) => <DateCell value={group.created} /> },
          {
            header: 'Actions',
            cell: (group) => (
              <button type="button" aria-label={`Open ${group.name}`} onClick={() => setQuery({ group: group.public_id })}>
                Open
              </button>
            ),
          },
        ]}
      />
    </>
  );
}

function GroupDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [version, setVersion] = useState(0);
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/groups/{id}', { params: { path: { id } } })), `${id}|${version}`);
  const changed = () => {
    setVersion(version + 1);
    onChanged();
  };
  const group = loaded.data;
  const writable = can('groups:write');
  const path = { params: { path: { id } } };
  return (
    <section class="detail" aria-labelledby="group-title">
      <h2 id="group-title">{group ? group.name : 'Group'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {group ? (
        <p class="muted">
          {group.member_count} members · id <code>{group.public_id}</code>
        </p>
      ) : null}
      {writable && group ? (
        <div class="grid">
          <Form
            resetKey={group.modified}
            label="Rename group"
            submitLabel="Save"
            onSubmit={async (data) => {
              await unwrap(
                // a group's source is set when it is created; only its name changes afterwards
                api.PATCH('/api/v2/groups/{id}', { ...path, body: { name: text(data, 'name') } }),
              );
              changed();
            }}
          >
            <Field name="name" label="Name" defaultValue={group.name} />
          </Form>
          <Form
            label="Add members"
            submitLabel="Add members"
            resetOnSuccess
            onSubmit={async (data) => {
              await unwrap(api.POST('/api/v2/groups/{id}/members', { ...path, body: { member_ids: picked(data, 'member_ids') } }));
              changed();
            }}
          >
            <Picker
              name="member_ids"
              label="People to add"
              kind="user"
              multiple
              hint="Type names or emails, or paste a column of emails."
            />
          </Form>
          <Form
            label="Remove members"
            submitLabel="Remove members"
            resetOnSuccess
            onSubmit={async (data) => {
              await unwrap(api.DELETE('/api/v2/groups/{id}/members', { ...path, body: { member_ids: picked(data, 'member_ids') } }));
              changed();
            }}
          >
            <Picker name="member_ids" label="People to remove" kind="user" multiple />
          </Form>
          <Form
            label="Replace members"
            submitLabel="Replace members"
            onSubmit={async (data) => {
              // the API refuses a replacement without confirm_replace; say so beside the box instead of sending it
              if (!checked(data, 'confirm_replace'))
                throw new ApiError(422, {
                  code: 'validation_error',
                  message: 'Confirm the replacement.',
                  field_errors: { confirm_replace: ['Tick this box to replace the whole member list.'] },
                });
              await unwrap(
                api.PUT('/api/v2/groups/{id}/members', {
                  ...path,
                  body: {
                    member_ids: list(data, 'member_ids'),
                    // the confirmations are sent only when given, as the API takes them
                    confirm_replace: true,
                    ...(checked(data, 'confirm_large_removal') ? { confirm_large_removal: true as const } : {}),
                  },
                }),
              );
              changed();
            }}
          >
            <Picker
              name="member_ids"
              label="The complete new member list"
              kind="user"
              multiple
              hint="Everyone not listed leaves the group."
            />
            <Field name="confirm_replace" label="Yes, replace the whole member list" type="checkbox" />
            <Field name="confirm_large_removal" label="Yes, even if this removes many members" type="checkbox" />
          </Form>
          {role.value === 'admin' ? (
            <Form
              label="Owners"
              submitLabel="Add owners"
              resetOnSuccess
              onSubmit={async (data) => {
                await unwrap(api.POST('/api/v2/groups/{id}/owners', { ...path, body: { member_ids: picked(data, 'owner_ids') } }));
                changed();
              }}
            >
              <Picker
                name="owner_ids"
                label="Organizers to make owners"
                kind="user"
                multiple
                errorKey="member_ids"
                hint="Owners may rename the group and change its members."
              />
            </Form>
          ) : null}
        </div>
      ) : null}
      {group?.owners.length ? (
        <p>
          Owners:{' '}
          {group.owners.map((owner) => (
            <span key={owner.public_id} class="badge">
              {owner.name}
              {role.value === 'admin' ? (
                <ActionButton
                  label="×"
                  name={`Remove owner ${owner.email}`}
                  run={() => unwrap(api.DELETE('/api/v2/groups/{id}/owners', { ...path, body: { member_ids: [owner.public_id] } }))}
                  done={changed}
                />
              ) : null}
            </span>
          ))}
        </p>
      ) : null}
      <h3>Members</h3>
      <ListView
        path="/api/v2/groups/{id}/members"
        pathParams={{ id }}
        prefix="m_"
        caption="Members"
        version={version}
        rowKey={(user) => user.public_id}
        columns={[
          { header: 'Name', cell: (user) => user.name },
          { header: 'Email', cell: (user) => user.email },
          { header: 'Id', cell: (user) => <code>{user.public_id}</code> },
          {
            header: 'Actions',
            cell: (user) =>
              writable ? (
                <ActionButton
                  label="Remove"
                  name={`Remove ${user.email}`}
                  danger
                  run={() => unwrap(api.DELETE('/api/v2/groups/{id}/members', { ...path, body: { member_ids: [user.public_id] } }))}
                  done={changed}
                />
              ) : null,
          },
        ]}
      />
      <div class="actions">
        {writable && role.value === 'admin' ? (
          <ActionButton
            label="Delete group"
            danger
            confirm="Delete this group? Content restricted to it loses that access group."
            run={() => unwrap(api.DELETE('/api/v2/groups/{id}', path))}
            done={() => {
              setQuery({ group: undefined });
              onChanged();
            }}
          />
        ) : null}
        <button type="button" onClick={() => setQuery({ group: undefined, m_page: undefined })}>
          Close
        </button>
      </div>
    </section>
  );
}
