/** Content: the catalogue across the ten types, creating per type, archive; an item's own page (content/<id>) is detail.tsx. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { AddressQuery } from '../../api/list.ts';
import { contentOrderings } from '../../api/values.ts';
import type { ContentType } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { listOrDetail } from '../../components/detail-route.tsx';
import { Form } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { detailAddress, ResourceLink } from '../../components/resource-link.tsx';
import { useVersion } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { can, me, role } from '../../session/me.ts';
import { ArchiveToggle } from './archive-toggle.tsx';
import { contentBulkActions } from './bulk-actions.tsx';
import { ContentDetail } from './detail.tsx';
import { bodyFrom, ContentFields, label, TYPES } from './fields.tsx';
import { CREATABLE, writesFor } from './writes.ts';

export const ContentPage = listOrDetail(ContentList, ContentDetail);

/** The list's search, filters and order, read from the address. */
const contentQuery = (q: AddressQuery) => ({
  search: q.text('search'),
  content_type: q.someOf('content_type', TYPES),
  is_archived: q.flag('is_archived'),
  is_hidden: q.flag('is_hidden'),
  tag: q.text('tag'),
  group: q.text('group'),
  ordering: q.oneOf('ordering', contentOrderings),
});

function ContentList() {
  const [version, refresh] = useVersion();
  const [newType, setNewType] = useState<ContentType | ''>('');
  const writable = can('content:write');
  const bulk = contentBulkActions({ archive: writable, assign: role.value !== 'user' && can('assignments:write') });
  return (
    <>
      <h1>Content</h1>
      {writable ? (
        <div class="field inline">
          <label for="new-type">New content of type</label>
          <select id="new-type" value={newType} onChange={(event) => setNewType(event.currentTarget.value as ContentType | '')}>
            <option value="">Choose…</option>
            {CREATABLE.map((type) => (
              <option key={type} value={type}>
                {label(type)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {newType ? (
        <>
          <h2>New {label(newType)}</h2>
          <Form
            resetKey={newType}
            submitLabel="Create content"
            onSubmit={async (data) => {
              const writes = writesFor(newType);
              if (!writes) return;
              const created = await unwrap(writes.create(bodyFrom(data, newType)));
              setNewType('');
              refresh();
              navigate(detailAddress('content', created.public_id));
            }}
          >
            <ContentFields type={newType} />
          </Form>
        </>
      ) : null}
      <ListView
        path="/api/v2/content-items"
        empty={writable ? 'No content yet. Choose a type above to create the first item.' : 'No content is open to you yet.'}
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...contentQuery(q) } } })}
        csv={(q, path) => api.GET(path, { params: { query: { ...contentQuery(q), format: 'csv' } }, parseAs: 'blob' })}
        caption="Content"
        version={version}
        exportName="content"
        search
        filters={[
          { name: 'content_type', label: 'Type', options: TYPES.map((type) => [type, label(type)] as const) },
          {
            name: 'is_archived',
            label: 'Archived',
            options: [
              ['false', 'Not archived'],
              ['true', 'Archived'],
            ],
          },
          {
            name: 'is_hidden',
            label: 'Hidden',
            options: [
              ['false', 'Visible'],
              ['true', 'Hidden'],
            ],
          },
          { name: 'tag', label: 'Tag' },
          { name: 'group', label: 'Access group', pick: 'group' },
        ]}
        orderings={[
          ['name', 'Name'],
          ['content_type', 'Type'],
          ['-created', 'Newest first'],
          ['-modified', 'Recently changed'],
          ['-total_assignments', 'Most assigned'],
        ]}
        rowKey={(item) => item.public_id}
        selectable={bulk.actions.length ? bulk : undefined}
        columns={[
          {
            header: 'Name',
            sort: 'name',
            cell: (item) => (
              <ResourceLink kind="content" id={item.public_id}>
                {item.name}
              </ResourceLink>
            ),
          },
          { header: 'Type', sort: 'content_type', cell: (item) => label(item.content_type) },
          { header: 'Tags', cell: (item) => item.tags.join(', ') },
          {
            header: 'Access groups',
            cell: (item) =>
              item.groups.length ? (
                item.groups.map((group, index) => (
                  <span key={group.public_id}>
                    {index ? ', ' : ''}
                    <ResourceLink kind="group" id={group.public_id}>
                      {group.name}
                    </ResourceLink>
                  </span>
                ))
              ) : (
                <span class="muted">everyone</span>
              ),
          },
          {
            header: 'Status',
            cell: (item) =>
              item.is_archived ? (
                <span class="badge bad">archived</span>
              ) : item.is_hidden ? (
                <span class="badge">hidden</span>
              ) : (
                <span class="badge ok">live</span>
              ),
          },
          { header: 'Assigned', sort: 'total_assignments', class: 'num', cell: (item) => item.total_assignments },
          { header: 'Created', sort: 'created', cell: (item) => <DateCell value={item.created} /> },
          {
            header: 'Actions',
            cell: (item) => (
              <div class="actions">
                {writable ? <ArchiveToggle item={item} done={refresh} /> : null}
                {role.value === 'user' && item.is_self_assignable && can('assignments:write') ? (
                  <ActionButton
                    label="Assign to me"
                    name={`Assign ${item.name} to me`}
                    run={() =>
                      unwrap(
                        api.POST('/api/v2/assignments', {
                          body: { user_id: me.value?.user.public_id ?? '', content_item_id: item.public_id },
                        }),
                      )
                    }
                    done={refresh}
                  />
                ) : null}
              </div>
            ),
          },
        ]}
      />
    </>
  );
}
