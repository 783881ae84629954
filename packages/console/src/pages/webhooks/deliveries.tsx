/**
 * An endpoint's delivery log, newest first by cursor: each attempt's outcome, and on demand the
 * request as sent (headers and payload) and the answer. Retry sends one delivery once more now;
 * Recover sends again, once and in order, every delivery whose last attempt failed since a time.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { Delivery } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { LoadedTable } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { Field, FoldedForm, text } from '../../components/form.tsx';
import { useLoad } from '../../components/use-load.ts';

export function Deliveries({ id, version, writable, active }: { id: string; version: number; writable: boolean; active: boolean }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const [shown, setShown] = useState<Delivery | null>(null);
  const [own, setOwn] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const loaded = useLoad(
    () =>
      unwrap(
        api.GET('/public_api/v2/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { page_size: 25, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    `${id}|${cursor}|${version}|${own}`,
  );
  const again = (message: string) => {
    setNotice(message);
    setCursor(null);
    // the attempt is made by the delivery engine, not by this request: read the log again shortly
    setTimeout(() => setOwn((n) => n + 1), 1500);
  };
  return (
    <>
      {notice ? (
        <p class="banner success" role="status">
          {notice}
        </p>
      ) : null}
      {writable ? (
        <FoldedForm
          summary="Recover failed deliveries"
          submitLabel="Send them again"
          onSubmit={async (data) => {
            const local = text(data, 'since');
            const since = local ? new Date(local).toISOString() : '';
            const { count } = await unwrap(api.POST('/public_api/v2/webhooks/{id}/recover', { params: { path: { id } }, body: { since } }));
            again(`${count} failed ${count === 1 ? 'delivery is' : 'deliveries are'} sent again, in order.`);
          }}
        >
          <Field
            name="since"
            label="Failed since"
            type="datetime-local"
            required
            hint={`Your browser's time. Every event whose last attempt failed since then is sent once more.${active ? '' : ' Resume the endpoint first.'}`}
          />
        </FoldedForm>
      ) : null}
      <LoadedTable
        caption="Deliveries"
        loaded={loaded}
        rowKey={(delivery) => delivery.id}
        empty="No deliveries yet. Send a test ping to see one."
        columns={[
          { header: 'When', cell: (d) => <DateCell value={d.created_at} /> },
          { header: 'Event', cell: (d) => d.event_type },
          { header: 'Attempt', class: 'num', cell: (d) => d.attempt },
          { header: 'Outcome', cell: (d) => <span class={d.status === 'succeeded' ? 'badge ok' : 'badge bad'}>{d.status}</span> },
          { header: 'Response', cell: (d) => d.response_status ?? d.error ?? '' },
          { header: 'Time', class: 'num', cell: (d) => `${d.duration_ms} ms` },
          {
            header: 'Actions',
            cell: (d) => (
              <div class="actions">
                <button type="button" aria-label={`Show delivery ${d.id}`} onClick={() => setShown(d)}>
                  Show
                </button>
                {writable ? (
                  <ActionButton
                    label="Retry"
                    name={`Retry delivery ${d.id}`}
                    run={() =>
                      unwrap(
                        api.POST('/public_api/v2/webhooks/{id}/deliveries/{delivery_id}/retry', {
                          params: { path: { id, delivery_id: d.id } },
                        }),
                      )
                    }
                    done={() => again(`Event ${d.event_id} is being sent again.`)}
                  />
                ) : null}
              </div>
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
      {shown ? <DeliveryDetails delivery={shown} hide={() => setShown(null)} /> : null}
    </>
  );
}

function DeliveryDetails({ delivery, hide }: { delivery: Delivery; hide: () => void }) {
  return (
    <div class="card" role="region" aria-label="Delivery details">
      <h3>Delivery {delivery.id}</h3>
      <p>
        Event <code>{delivery.event_id}</code> ({delivery.event_type}), attempt {delivery.attempt}.
        {delivery.next_attempt_at ? (
          <>
            {' '}
            Next attempt <DateCell value={delivery.next_attempt_at} />.
          </>
        ) : null}
      </p>
      <h4>Request headers</h4>
      {delivery.request_headers ? (
        <pre tabIndex={0} aria-label="Request headers">
          {Object.entries(delivery.request_headers)
            .map(([name, value]) => `${name}: ${String(value)}`)
            .join('\n')}
        </pre>
      ) : (
        <p>Nothing was sent (the address was refused before connecting).</p>
      )}
      <h4>Payload</h4>
      <pre tabIndex={0} aria-label="Payload">
        {delivery.payload === null || delivery.payload === undefined ? '(none)' : JSON.stringify(delivery.payload, null, 2)}
      </pre>
      <h4>Response</h4>
      <p>
        {delivery.response_status ?? 'none'}
        {delivery.error ? ` · ${delivery.error}` : ''}
      </p>
      <pre tabIndex={0} aria-label="Response body">
        {delivery.response_body ?? '(no body)'}
      </pre>
      <button type="button" onClick={hide}>
        Hide
      </button>
    </div>
  );
}
