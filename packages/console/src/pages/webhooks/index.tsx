/**
 * Webhooks: endpoints (create, edit, pause), the secret shown once on create and rotate, a test
 * ping, the delivery log per endpoint with what was sent and what came back, the event catalogue.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { BodyOf, Delivery, Webhook } from '../../api/types.ts';
import { ActionButton, SecretOnce } from '../../components/action.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { checked, Field, Form, list, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can } from '../../session/me.ts';

/** The names typed in; the server checks them against the catalogue and answers 422 on `events` for unknown ones. */
const eventNames = (data: FormData) => list(data, 'events') as BodyOf<'/public_api/v2/webhooks', 'post'>['events'];

export function WebhooksPage() {
  const [version, setVersion] = useState(0);
  const [secret, setSecret] = useState<string | null>(null);
  const open = query().get('endpoint');
  const refresh = () => setVersion(version + 1);
  const writable = can('webhooks:write');
  return (
    <>
      <h1>Webhooks</h1>
      {secret ? <SecretOnce label="The endpoint's signing secret." value={secret} /> : null}
      {writable ? (
        <details>
          <summary>New endpoint</summary>
          <Form
            submitLabel="Create endpoint"
            resetOnSuccess
            onSubmit={async (data) => {
              const made = await unwrap(
                api.POST('/public_api/v2/webhooks', {
                  body: { url: text(data, 'url'), events: eventNames(data), description: text(data, 'description'), is_active: true },
                }),
              );
              setSecret(made.secret);
              refresh();
              setQuery({ endpoint: made.id });
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
          </Form>
        </details>
      ) : null}
      {open ? <Endpoint id={open} writable={writable} onChanged={refresh} onSecret={setSecret} /> : null}
      <ListView
        path="/public_api/v2/webhooks"
        caption="Webhook endpoints"
        version={version}
        rowKey={(hook) => hook.id}
        columns={[
          { header: 'URL', cell: (hook) => hook.url },
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
          { header: 'Created', cell: (hook) => <DateCell value={hook.created} /> },
          {
            header: 'Actions',
            cell: (hook) => (
              <button type="button" aria-label={`Open ${hook.url}`} onClick={() => setQuery({ endpoint: hook.id })}>
                Open
              </button>
            ),
          },
        ]}
      />
      <EventCatalogue />
    </>
  );
}

function Endpoint({
  id,
  writable,
  onChanged,
  onSecret,
}: {
  id: string;
  writable: boolean;
  onChanged: () => void;
  onSecret: (secret: string) => void;
}) {
  const [version, setVersion] = useState(0);
  const [ping, setPing] = useState<string | null>(null);
  const path = { params: { path: { id } } };
  const loaded = useLoad(() => unwrap(api.GET('/public_api/v2/webhooks/{id}', path)), `${id}|${version}`);
  const hook: Webhook | undefined = loaded.data;
  const changed = () => {
    setVersion(version + 1);
    onChanged();
  };
  return (
    <section class="detail" aria-labelledby="endpoint-title">
      <h2 id="endpoint-title">Endpoint {hook?.url ?? ''}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {hook?.disabled_reason ? (
        <p class="banner warning" role="status">
          Disabled: {hook.disabled_reason}
        </p>
      ) : null}
      {ping ? (
        <p class="banner success" role="status">
          Test ping queued as event {ping}; it appears in the delivery log below once sent.
        </p>
      ) : null}
      {hook && writable ? (
        <>
          <div class="actions">
            <ActionButton
              label="Send test ping"
              run={async () => setPing((await unwrap(api.POST('/public_api/v2/webhooks/{id}/test', path))).event_id)}
              done={() => setTimeout(() => setVersion((n) => n + 1), 1500)}
            />
            <ActionButton
              label={hook.is_active ? 'Pause' : 'Resume'}
              run={() => unwrap(api.PATCH('/public_api/v2/webhooks/{id}', { ...path, body: { is_active: !hook.is_active } }))}
              done={changed}
            />
            <ActionButton
              label="Rotate secret"
              confirm="Rotate the signing secret? Receivers must switch to the new one."
              run={async () => onSecret((await unwrap(api.POST('/public_api/v2/webhooks/{id}/rotate-secret', path))).secret)}
            />
            <ActionButton
              label="Delete endpoint"
              danger
              confirm="Delete this endpoint and stop its deliveries?"
              run={() => unwrap(api.DELETE('/public_api/v2/webhooks/{id}', path))}
              done={() => {
                setQuery({ endpoint: undefined });
                onChanged();
              }}
            />
          </div>
          <Form
            resetKey={hook.modified}
            submitLabel="Save"
            onSubmit={async (data) => {
              await unwrap(
                api.PATCH('/public_api/v2/webhooks/{id}', {
                  ...path,
                  body: {
                    url: text(data, 'url'),
                    events: eventNames(data),
                    description: text(data, 'description'),
                    is_active: checked(data, 'is_active'),
                  },
                }),
              );
              changed();
            }}
          >
            <Field name="url" label="URL" type="url" defaultValue={hook.url} />
            <Field name="events" label="Events" defaultValue={hook.events.join(', ')} />
            <Field name="description" label="Description" defaultValue={hook.description} />
            <Field name="is_active" label="Active" type="checkbox" defaultChecked={hook.is_active} />
          </Form>
        </>
      ) : null}
      <h3>Delivery log</h3>
      <Deliveries id={id} version={version} />
      <button type="button" onClick={() => setQuery({ endpoint: undefined })}>
        Close
      </button>
    </section>
  );
}

type Get = (
  path: string,
  init: { params: { path: { id: string }; query: Record<string, string> } },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The deliveries, newest first, by cursor (the route pages by cursor, not by number). */
function Deliveries({ id, version }: { id: string; version: number }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const [shown, setShown] = useState<Delivery | null>(null);
  const loaded = useLoad(async () => {
    // the cursor is documented but not declared in the OpenAPI document
    const get = api.GET as unknown as Get;
    return (await unwrap(
      get('/public_api/v2/webhooks/{id}/deliveries', {
        params: { path: { id }, query: { page_size: '25', ...(cursor ? { cursor } : {}) } },
      }),
    )) as {
      data: Delivery[];
      meta?: { next_cursor?: string | null };
    };
  }, `${id}|${cursor}|${version}`);
  return (
    <>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      <DataTable
        caption="Deliveries"
        rows={loaded.data?.data}
        loading={loaded.loading}
        rowKey={(delivery) => delivery.id}
        empty="No deliveries yet."
        columns={[
          { header: 'When', cell: (d) => <DateCell value={d.created_at} /> },
          { header: 'Event', cell: (d) => d.event_type },
          { header: 'Attempt', class: 'num', cell: (d) => d.attempt },
          { header: 'Outcome', cell: (d) => <span class={d.status === 'succeeded' ? 'badge ok' : 'badge bad'}>{d.status}</span> },
          { header: 'Response', cell: (d) => d.response_status ?? d.error ?? '' },
          { header: 'Time', class: 'num', cell: (d) => `${d.duration_ms} ms` },
          {
            header: 'Details',
            cell: (d) => (
              <button type="button" aria-label={`Show delivery ${d.id}`} onClick={() => setShown(d)}>
                Show
              </button>
            ),
          },
        ]}
      />
      <div class="pager">
        {cursor ? (
          <button type="button" onClick={() => setCursor(null)}>
            Newest
          </button>
        ) : null}
        {loaded.data?.meta?.next_cursor ? (
          <button type="button" onClick={() => setCursor(loaded.data?.meta?.next_cursor ?? null)}>
            Older deliveries
          </button>
        ) : null}
      </div>
      {shown ? (
        <div class="card" role="region" aria-label="Delivery details">
          <h3>Delivery {shown.id}</h3>
          <p>
            Request: event <code>{shown.event_id}</code> ({shown.event_type}), attempt {shown.attempt}, signed with the endpoint's secret.
            {shown.next_attempt_at ? (
              <>
                {' '}
                Next attempt <DateCell value={shown.next_attempt_at} />.
              </>
            ) : null}
          </p>
          <p>
            Response: {shown.response_status ?? 'none'}
            {shown.error ? ` · ${shown.error}` : ''}
          </p>
          <pre tabIndex={0} aria-label="Response body">
            {shown.response_body ?? '(no body)'}
          </pre>
          <button type="button" onClick={() => setShown(null)}>
            Hide
          </button>
        </div>
      ) : null}
    </>
  );
}

interface Family {
  family: string;
  description?: string;
  event_types: { name: string; description?: string }[];
}

function EventCatalogue() {
  const loaded = useLoad(async () => {
    const body = (await unwrap(api.GET('/public_api/v2/webhooks/event-catalog'))) as { data?: Family[] };
    return body.data ?? [];
  }, 'catalogue');
  return (
    <section aria-labelledby="catalogue">
      <h2 id="catalogue">Event catalogue</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {loaded.data?.map((family) => (
        <details key={family.family}>
          <summary>
            <code>{family.family}.*</code> {family.description ?? ''}
          </summary>
          <ul>
            {family.event_types.map((type) => (
              <li key={type.name}>
                <code>{type.name}</code> {type.description ?? ''}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}
