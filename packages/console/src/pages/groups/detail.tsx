/** One group's page: rename, members (add several at once, remove, replace with the API's confirmations), owners, delete. */
import { api, ApiError, unwrap } from '../../api/client.ts';
import { userOrderings } from '../../api/values.ts';
import { ActionButton } from '../../components/action.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { checked, Field, Form, list, picked, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { useRecord } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { userEmail, userId, userName } from '../users/columns.tsx';
import { can, role } from '../../session/me.ts';
import { memberBulkActions } from './bulk-actions.tsx';

export function GroupDetail({ segments: [id = ''] }: { segments: string[] }) {
  const { loaded, version, changed } = useRecord(id, () => unwrap(api.GET('/api/v2/groups/{id}', { params: { path: { id } } })));
  const writable = can('groups:write');
  const path = { params: { path: { id } } };
  return (
    <DetailPage
      loaded={loaded}
      back={['groups', 'Groups']}
      id={id}
      summary={(group) => `${group.member_count} members · source ${group.source ?? 'native'}`}
    >
      {(group) => (
        <>
          {writable ? (
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
          {group.owners.length ? (
            <p>
              Owners:{' '}
              {group.owners.map((owner) => (
                <span key={owner.public_id} class="badge">
                  <ResourceLink kind="user" id={owner.public_id}>
                    {owner.name}
                  </ResourceLink>
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
          <h2>Members</h2>
          <ListView
            path="/api/v2/groups/{id}/members"
            empty="No members yet. Add people above by typing their names, or paste a column of emails."
            load={(q, path) =>
              api.GET(path, {
                params: { path: { id }, query: { ...q.paging, ordering: q.oneOf('ordering', userOrderings) } },
              })
            }
            scope={id}
            prefix="m_"
            caption="Members"
            version={version}
            rowKey={(user) => user.public_id}
            selectable={writable ? memberBulkActions(id, changed) : undefined}
            columns={[
              userName,
              userEmail,
              userId,
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
                done={() => navigate('groups')}
              />
            ) : null}
          </div>
        </>
      )}
    </DetailPage>
  );
}
