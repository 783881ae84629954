/** Content: the catalogue across the ten types, create and edit per type, archive, tags, access groups. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import { sendTo } from '../../api/list.ts';
import type { BodyOf, ContentItem, ContentType } from '../../api/types.ts';
// core's table of each type's collection: plain data, so the bundle takes nothing else of core
import { contentTypeCollections } from '../../../../core/src/content/content-types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { checked, Field, Form, integer, list, nullableText, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can, me, role } from '../../session/me.ts';

const TYPES: readonly ContentType[] = [
  'article',
  'video',
  'course',
  'guide',
  'event',
  'event_type',
  'link',
  'track',
  'scheduled_track',
  'collection',
];
/** The types created here, each through its own collection; events and series live on the Events page. */
const CREATABLE: Partial<Record<ContentType, string>> = Object.fromEntries(
  Object.entries(contentTypeCollections).map(([type, collection]) => [type, `/api/v2/${collection}`]),
);
const CONTAINERS: ContentType[] = ['track', 'scheduled_track', 'collection'];
const label = (type: string) => type.replace('_', ' ');

type Common = BodyOf<'/api/v2/articles', 'post'>;
type Extra = Partial<BodyOf<'/api/v2/links', 'post'> & BodyOf<'/api/v2/videos', 'post'> & BodyOf<'/api/v2/scheduled-tracks', 'post'>>;

function bodyFrom(data: FormData, type: ContentType): Common & Extra {
  const body: Common & Extra = {
    name: text(data, 'name'),
    description: text(data, 'description'),
    tags: list(data, 'tags'),
    groups: list(data, 'groups'),
    is_hidden: checked(data, 'is_hidden'),
    is_self_assignable: checked(data, 'is_self_assignable'),
    is_completable: checked(data, 'is_completable'),
    duration: integer(data, 'duration') ?? 0,
  };
  if (type === 'link') body.url = text(data, 'url');
  if (type === 'video' && text(data, 'media_asset_id')) body.media_asset_id = text(data, 'media_asset_id');
  if (CONTAINERS.includes(type)) body.items = list(data, 'items');
  if (type === 'scheduled_track') {
    body.starts_on = nullableText(data, 'starts_on');
    body.ends_on = nullableText(data, 'ends_on');
  }
  return body;
}

function ContentFields({ type, item }: { type: ContentType; item?: ContentItem }) {
  return (
    <>
      <Field name="name" label="Name" required defaultValue={item?.name} />
      <Field name="description" label="Description" defaultValue={item?.description} />
      {type === 'link' ? <Field name="url" label="URL" type="url" /> : null}
      {type === 'video' ? <Field name="media_asset_id" label="Media asset id" /> : null}
      {CONTAINERS.includes(type) ? (
        <Picker name="items" label="Items" kind="content" multiple hint="The items it holds, in the order picked." />
      ) : null}
      {type === 'scheduled_track' ? (
        <>
          <Field name="starts_on" label="Starts on" type="date" />
          <Field name="ends_on" label="Ends on" type="date" />
        </>
      ) : null}
      <Field name="tags" label="Tags" hint="Separated by commas or spaces." defaultValue={item?.tags.join(', ')} />
      <Picker
        name="groups"
        label="Access groups"
        kind="group"
        multiple
        hint="None means everyone may see it."
        initial={item?.groups.map((group) => ({ value: group.public_id, label: group.name }))}
      />
      <Field name="duration" label="Duration (minutes)" type="number" min={0} defaultValue={String(item?.duration_minutes ?? 0)} />
      <Field name="is_hidden" label="Hidden" type="checkbox" defaultChecked={item?.is_hidden ?? false} />
      <Field name="is_self_assignable" label="Self-assignable" type="checkbox" defaultChecked={item?.is_self_assignable ?? false} />
      <Field name="is_completable" label="Completable" type="checkbox" defaultChecked={item?.is_completable ?? true} />
    </>
  );
}

export function ContentPage() {
  const [version, setVersion] = useState(0);
  const [newType, setNewType] = useState<ContentType | ''>('');
  const editing = query().get('edit');
  const writable = can('content:write');
  const refresh = () => setVersion(version + 1);
  return (
    <>
      <h1>Content</h1>
      {writable ? (
        <div class="field inline">
          <label for="new-type">New content of type</label>
          <select id="new-type" value={newType} onChange={(event) => setNewType(event.currentTarget.value as ContentType | '')}>
            <option value="">Choose…</option>
            {Object.keys(CREATABLE).map((type) => (
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
              const created = await sendTo<ContentItem>('POST', CREATABLE[newType] ?? '', bodyFrom(data, newType));
              setNewType('');
              refresh();
              setQuery({ edit: created.public_id });
            }}
          >
            <ContentFields type={newType} />
          </Form>
        </>
      ) : null}
      {editing ? <EditContent id={editing} writable={writable} onSaved={refresh} /> : null}
      <ListView
        path="/api/v2/content-items"
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
        columns={[
          { header: 'Name', cell: (item) => item.name },
          { header: 'Type', cell: (item) => label(item.content_type) },
          { header: 'Tags', cell: (item) => item.tags.join(', ') },
          {
            header: 'Access groups',
            cell: (item) => (item.groups.length ? item.groups.map((group) => group.name).join(', ') : <span class="muted">everyone</span>),
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
          { header: 'Assigned', class: 'num', cell: (item) => item.total_assignments },
          { header: 'Created', cell: (item) => <DateCell value={item.created} /> },
          {
            header: 'Actions',
            cell: (item) => (
              <div class="actions">
                <button type="button" aria-label={`Open ${item.name}`} onClick={() => setQuery({ edit: item.public_id })}>
                  Open
                </button>
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

function ArchiveToggle({ item, done }: { item: ContentItem; done: () => void }) {
  const verb = item.is_archived ? 'Unarchive' : 'Archive';
  const items = [{ public_id: item.public_id }];
  return (
    <ActionButton
      label={verb}
      name={`${verb} ${item.name}`}
      run={() =>
        item.is_archived
          ? unwrap(api.POST('/api/v2/content-items/bulk/unarchive', { body: { items } }))
          : unwrap(api.POST('/api/v2/content-items/bulk/archive', { body: { items } }))
      }
      done={done}
    />
  );
}

function EditContent({ id, writable, onSaved }: { id: string; writable: boolean; onSaved: () => void }) {
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/content-items/{id}', { params: { path: { id } } })), id);
  const [saved, setSaved] = useState(false);
  const item = loaded.data;
  const path = item ? CREATABLE[item.content_type] : undefined;
  return (
    <section class="detail" aria-labelledby="content-title">
      <h2 id="content-title">{item ? item.name : 'Content item'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {saved ? (
        <p class="banner success" role="status">
          Saved.
        </p>
      ) : null}
      {item ? (
        <p class="muted">
          {label(item.content_type)} · id <code>{item.public_id}</code> · {item.completed_assignments_count} of {item.total_assignments}{' '}
          assignments completed
          {item.avg_feedback_rating !== null ? ` · rated ${item.avg_feedback_rating}` : ''}
        </p>
      ) : null}
      {item && writable && path ? (
        <Form
          resetKey={item.modified}
          submitLabel="Save"
          onSubmit={async (data) => {
            setSaved(false);
            const { items: _items, url: _url, ...body } = bodyFrom(data, item.content_type);
            // containers and links keep their items and url unless the form gave them
            const extra = {
              ...(text(data, 'items') ? { items: list(data, 'items') } : {}),
              ...(text(data, 'url') ? { url: text(data, 'url') } : {}),
            };
            await sendTo('PATCH', `${path}/{id}`, { ...body, ...extra }, { id });
            setSaved(true);
            loaded.reload();
            onSaved();
          }}
        >
          <ContentFields type={item.content_type} item={item} />
        </Form>
      ) : item && writable ? (
        <p class="muted">Events and event types are edited on the Events page.</p>
      ) : null}
      <button type="button" onClick={() => setQuery({ edit: undefined })}>
        Close
      </button>
    </section>
  );
}
