/**
 * One content item's page (content/<id>): its fields by type (the edit form for its type, or the
 * facts for a reader), archive, how its assignments stand (the completion insight) and the
 * assignments themselves.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { ContentItem } from '../../api/types.ts';
import { assignmentStates } from '../../api/values.ts';
import { BarChart } from '../../components/bar-chart.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { Form, list, text } from '../../components/form.tsx';
import { buckets } from '../../components/insight-buckets.ts';
import { ListView } from '../../components/list-view.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { useLoad, useRecord } from '../../components/use-load.ts';
import { can } from '../../session/me.ts';
import { assignmentCompleted, assignmentDue, assignmentEmail, assignmentPerson, assignmentState } from '../assignments/columns.tsx';
import { assignmentsQuery } from '../assignments/list-load.ts';
import { ArchiveToggle } from './archive-toggle.tsx';
import { bodyFrom, ContentFields, label } from './fields.tsx';
import { writesFor } from './writes.ts';

export function ContentDetail({ segments: [id = ''] }: { segments: string[] }) {
  const { loaded, version, changed } = useRecord(id, () => unwrap(api.GET('/api/v2/content-items/{id}', { params: { path: { id } } })));
  const [saved, setSaved] = useState(false);
  // the calls that save this type of item; events and series have none here
  const writes = loaded.data ? writesFor(loaded.data.content_type) : undefined;
  const writable = can('content:write');
  return (
    <DetailPage
      loaded={loaded}
      back={['content', 'Content']}
      id={id}
      summary={(item) =>
        `${label(item.content_type)}${item.is_archived ? ' · archived' : ''}${item.avg_feedback_rating !== null ? ` · rated ${item.avg_feedback_rating}` : ''}`
      }
    >
      {(item) => (
        <>
          {writable ? (
            <div class="actions">
              <ArchiveToggle item={item} done={changed} />
            </div>
          ) : null}
          {saved ? (
            <p class="banner success" role="status">
              Saved.
            </p>
          ) : null}
          <Completion id={id} version={version} />
          <h2>Fields</h2>
          {writable && writes ? (
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
                await unwrap(writes.update(id, { ...body, ...extra }));
                setSaved(true);
                changed();
              }}
            >
              <ContentFields type={item.content_type} item={item} />
            </Form>
          ) : writable && (item.content_type === 'event' || item.content_type === 'event_type') ? (
            <p>
              {/* events and series are content items with the same id, edited on their own pages */}
              {item.content_type === 'event' ? 'An event' : 'A series'} is edited on{' '}
              <ResourceLink kind={item.content_type === 'event' ? 'event' : 'series'} id={item.public_id}>
                its own page
              </ResourceLink>
              .
            </p>
          ) : (
            <ReadOnlyFields item={item} />
          )}
          {can('assignments:read') ? (
            <>
              <h2>Assignments</h2>
              <ListView
                path="/api/v2/assignments"
                empty="Not assigned to anyone yet. Assign it on the Assignments page, to a person or a whole group."
                load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...assignmentsQuery(q), content_item: id } } })}
                scope={id}
                prefix="a_"
                caption="Its assignments"
                version={version}
                filters={[{ name: 'state', label: 'State', options: assignmentStates.map((state) => [state, label(state)] as const) }]}
                rowKey={(a) => a.public_id}
                columns={[assignmentPerson, assignmentEmail, assignmentState, assignmentDue, assignmentCompleted]}
              />
            </>
          ) : null}
        </>
      )}
    </DetailPage>
  );
}

/** Its completion insight: how its assignments stand, as a chart with the figures in a table. */
function Completion({ id, version }: { id: string; version: number }) {
  const loaded = useLoad(
    () => unwrap(api.GET('/api/v2/insights/assignments/completion', { params: { query: { content_item_id: id } } })),
    `${id}|${version}`,
  );
  if (loaded.error) return <ErrorBanner error={loaded.error} onRetry={loaded.reload} />;
  return (
    <section aria-labelledby="completion" aria-busy={loaded.loading ? true : undefined}>
      <h2 id="completion">Completion</h2>
      {loaded.data ? (
        <div class="card">
          <BarChart title="Completion" bars={buckets(loaded.data)} />
          <p>{loaded.data.total} assignments in all.</p>
        </div>
      ) : null}
    </section>
  );
}

/** What a reader without content:write (or an event) sees instead of the form. */
function ReadOnlyFields({ item }: { item: ContentItem }) {
  return (
    <dl class="facts">
      <dt>Type</dt>
      <dd>{label(item.content_type)}</dd>
      <dt>Description</dt>
      <dd>{item.description || '—'}</dd>
      <dt>Tags</dt>
      <dd>{item.tags.join(', ') || '—'}</dd>
      <dt>Access groups</dt>
      <dd>{item.groups.map((group) => group.name).join(', ') || 'everyone'}</dd>
      <dt>Self-assignable</dt>
      <dd>{item.is_self_assignable ? 'yes' : 'no'}</dd>
    </dl>
  );
}
