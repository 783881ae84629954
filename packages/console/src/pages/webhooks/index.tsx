/**
 * Webhooks: the endpoints, creating one, and the event catalogue; an endpoint's own page
 * (webhooks/<id>) is endpoint.tsx.
 */
import { api, unwrap } from '../../api/client.ts';
import { webhookOrderings } from '../../api/values.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { listOrDetail } from '../../components/detail-route.tsx';
import { CreateForm, Field, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { detailAddress, ResourceLink } from '../../components/resource-link.tsx';
import { useLoad, useVersion } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { can } from '../../session/me.ts';
import { createdSecret, EndpointDetail, eventNames } from './endpoint.tsx';

export const WebhooksPage = listOrDetail(WebhookList, EndpointDetail);

function WebhookList() {
  const [version, refresh] = useVersion();
  const writable = can('webhooks:write');
  return (
    <>
      <h1>Webhooks</h1>
      {writable ? (
        <CreateForm
          noun="endpoint"
          create={(data) =>
            unwrap(
              api.POST('/public_api/v2/webhooks', {
                body: { url: text(data, 'url'), events: eventNames(data), description: text(data, 'description'), is_active: true },
              }),
            )
          }
          onCreated={(made) => {
            createdSecret.value = { id: made.id, secret: made.secret };
            refresh();
            navigate(detailAddress('webhook', made.id));
          }}
        >
          <Field name="url" label="URL" type="url" required hint="https:// address that receives the events." />
          <Field
            name="events"
            label="Events"
            required
            hint="Event types or families from the catalogue below, separated by commas (for example assignment.*, enrollment.enrolled)."
          />
          <Field name="description" label="Description" />
        </CreateForm>
      ) : null}
      <ListView
        path="/public_api/v2/webhooks"
        empty="No webhook endpoints yet. Add one above to have Lectern call your service when something changes."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ordering: q.oneOf('ordering', webhookOrderings) } } })}
        caption="Webhook endpoints"
        version={version}
        rowKey={(hook) => hook.id}
        columns={[
          {
            header: 'URL',
            sort: 'url',
            cell: (hook) => (
              <ResourceLink kind="webhook" id={hook.id}>
                {hook.url}
              </ResourceLink>
            ),
          },
          { header: 'Events', cell: (hook) => hook.events.join(', ') },
          {
            header: 'Status',
            cell: (hook) =>
              hook.is_active ? (
                <span class="badge ok">active</span>
              ) : (
                <span class="badge bad" title={hook.disabled_reason ?? ''}>
                  {hook.disabled_reason ? 'disabled' : 'paused'}
                </span>
              ),
          },
          { header: 'Created', sort: 'created', cell: (hook) => <DateCell value={hook.created} /> },
        ]}
      />
      <EventCatalogue />
    </>
  );
}

function EventCatalogue() {
  const loaded = useLoad(async () => {
    const body = await unwrap(api.GET('/public_api/v2/webhooks/event-catalog'));
    return body.data;
  }, 'catalogue');
  return (
    <section aria-labelledby="catalogue">
      <h2 id="catalogue">Event catalogue</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {loaded.data?.map((family) => (
        <details key={family.family}>
          <summary>
            <code>{family.family}.*</code> {family.description}
          </summary>
          <ul>
            {family.event_types.map((type) => (
              <li key={type.name}>
                <code>{type.name}</code> {type.description}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}
