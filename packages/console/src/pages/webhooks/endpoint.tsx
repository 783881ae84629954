/**
 * One webhook endpoint's page (webhooks/<id>): the secret shown once (on create and on rotation),
 * a test ping, pause, edit, delete, and the delivery log with retry and recover (deliveries.tsx).
 */
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { BodyOf } from '../../api/types.ts';
import { ActionButton, SecretOnce } from '../../components/action.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { checked, Field, Form, list, text } from '../../components/form.tsx';
import { useRecord } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { can } from '../../session/me.ts';
import { Deliveries } from './deliveries.tsx';

/** The secret of the endpoint the list page just created, handed to its page, which shows it once. */
export const createdSecret = signal<{ id: string; secret: string } | null>(null);

/** The names typed in; the server checks them against the catalogue and answers 422 on `events` for unknown ones. */
export const eventNames = (data: FormData) => list(data, 'events') as BodyOf<'/public_api/v2/webhooks', 'post'>['events'];

export function EndpointDetail({ segments: [id = ''] }: { segments: string[] }) {
  const writable = can('webhooks:write');
  // the secret of an endpoint just created here, or of a rotation: shown once, never read again
  const [secret, setSecret] = useState(createdSecret.value?.id === id ? createdSecret.value.secret : null);
  useEffect(() => {
    createdSecret.value = null;
  }, []);
  const [ping, setPing] = useState<string | null>(null);
  const path = { params: { path: { id } } };
  const { loaded, version, changed } = useRecord(id, () => unwrap(api.GET('/public_api/v2/webhooks/{id}', path)));
  return (
    <DetailPage
      loaded={loaded}
      title={(hook) => `Endpoint ${hook.url}`}
      back={['webhooks', 'Webhooks']}
      id={id}
      summary={(hook) => `${hook.is_active ? 'active' : 'paused'} · ${hook.events.join(', ')}`}
    >
      {(hook) => (
        <>
          {secret ? <SecretOnce label="The endpoint's signing secret." value={secret} /> : null}
          {hook.disabled_reason ? (
            <p class="banner warning" role="status">
              Disabled: {hook.disabled_reason}
            </p>
          ) : null}
          {ping ? (
            <p class="banner success" role="status">
              Test ping queued as event {ping}; it appears in the delivery log below once sent.
            </p>
          ) : null}
          {writable ? (
            <>
              <div class="actions">
                <ActionButton
                  label="Send test ping"
                  run={async () => setPing((await unwrap(api.POST('/public_api/v2/webhooks/{id}/test', path))).event_id)}
                  done={() => setTimeout(changed, 1500)}
                />
                <ActionButton
                  label={hook.is_active ? 'Pause' : 'Resume'}
                  run={() => unwrap(api.PATCH('/public_api/v2/webhooks/{id}', { ...path, body: { is_active: !hook.is_active } }))}
                  done={changed}
                />
                <ActionButton
                  label="Rotate secret"
                  confirm="Rotate the signing secret? Receivers must switch to the new one."
                  run={async () => setSecret((await unwrap(api.POST('/public_api/v2/webhooks/{id}/rotate-secret', path))).secret)}
                />
                <ActionButton
                  label="Delete endpoint"
                  danger
                  confirm="Delete this endpoint and stop its deliveries?"
                  run={() => unwrap(api.DELETE('/public_api/v2/webhooks/{id}', path))}
                  done={() => navigate('webhooks')}
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
          <h2>Delivery log</h2>
          <Deliveries id={id} version={version} writable={writable} active={hook.is_active} />
        </>
      )}
    </DetailPage>
  );
}
