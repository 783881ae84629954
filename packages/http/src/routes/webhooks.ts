import {
  createWebhookInput,
  deliveryAttemptSchema,
  eventCatalogSchema,
  recoverDeliveriesInput,
  updateWebhookInput,
  webhookListSpec,
  webhookSubscriptionSchema,
  webhookSubscriptionWithSecretSchema,
  type Lectern,
} from '@lectern/core';
import { z } from 'zod';
import { cursorPaging, named, resource } from '../operation-spec.ts';
import { accepted, noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const eventIdResult = () => z.object({ event_id: z.string() });
const deliveryAttemptPage = named(
  'DeliveryAttemptPage',
  z
    .object({
      data: z.array(deliveryAttemptSchema),
      // declared so clients (the console) read the next page's cursor without guessing
      meta: z.object({ page_size: z.number().int(), next_cursor: z.string().nullable() }),
    })
    .passthrough(),
);

export function webhookRoutes(routes: RouteTable, lectern: Lectern): void {
  const webhooks = lectern.webhooks;
  const spec = resource('Webhooks', 'webhooks:read', webhookSubscriptionWithSecretSchema);
  routes
    .get('/public_api/v2/webhooks/event-catalog', spec.get('The event types', eventCatalogSchema), (rc) => ok(webhooks.catalog(rc.ctx)))
    .get('/public_api/v2/webhooks', spec.list('List subscriptions', webhookListSpec, webhookSubscriptionSchema), async (rc) =>
      ok(await webhooks.list(rc.ctx, rc.query)),
    )
    .post('/public_api/v2/webhooks', spec.write('Subscribe', createWebhookInput, 201), async (rc) =>
      withEtag(await webhooks.create(rc.ctx, rc.body()), 201),
    )
    .get('/public_api/v2/webhooks/:id', spec.get('Get a subscription'), async (rc) => withEtag(await webhooks.get(rc.ctx, rc.params.id)))
    .patch('/public_api/v2/webhooks/:id', spec.write('Update a subscription', updateWebhookInput), async (rc) =>
      withEtag(await webhooks.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    )
    .delete('/public_api/v2/webhooks/:id', spec.write('Delete a subscription', undefined, 204, null), async (rc) => {
      await webhooks.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    })
    .post('/public_api/v2/webhooks/:id/rotate-secret', spec.write('Rotate the signing secret', undefined), async (rc) =>
      withEtag(await webhooks.rotateSecret(rc.ctx, rc.params.id, rc.preconditions)),
    )
    .post('/public_api/v2/webhooks/:id/test', spec.write('Send a test event', undefined, 202, eventIdResult()), async (rc) =>
      accepted(await webhooks.test(rc.ctx, rc.params.id)),
    )
    .get(
      '/public_api/v2/webhooks/:id/deliveries',
      {
        ...spec.get('Delivery attempts (cursor pages)', deliveryAttemptPage),
        query: {
          extra: {
            ...cursorPaging('Attempts', 'att'),
            event_id: {
              schema: { type: 'string', pattern: '^msg_[0-9A-HJKMNP-TV-Z]{26}$' },
              description: 'Only the attempts to deliver this event',
            },
          },
        },
      },
      async (rc) => ok(await webhooks.deliveries(rc.ctx, rc.params.id, rc.query)),
    )
    .post(
      '/public_api/v2/webhooks/:id/deliveries/:delivery_id/retry',
      spec.write(
        "Attempt an attempt's event again, now (409 while it is being sent or the endpoint is off)",
        undefined,
        202,
        eventIdResult(),
      ),
      async (rc) => accepted(await webhooks.retry(rc.ctx, rc.params.id, rc.params.delivery_id)),
    )
    .post(
      '/public_api/v2/webhooks/:id/recover',
      spec.write(
        'Attempt again, once and in order, every event whose last attempt failed since `since`',
        recoverDeliveriesInput,
        202,
        z.object({ count: z.number().int() }),
      ),
      async (rc) => accepted(await webhooks.recover(rc.ctx, rc.params.id, rc.body())),
    );
}
