import type { Lectern } from '@lectern/core';
import { accepted, noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function webhookRoutes(routes: RouteTable, lectern: Lectern): void {
  const webhooks = lectern.webhooks;
  routes
    .get('/public_api/v2/webhooks/event-catalog', (rc) => ok(webhooks.catalog(rc.ctx)))
    .get('/public_api/v2/webhooks', async (rc) => ok(await webhooks.list(rc.ctx, rc.query)))
    .post('/public_api/v2/webhooks', async (rc) => withEtag(await webhooks.create(rc.ctx, rc.body()), 201))
    .get('/public_api/v2/webhooks/:id', async (rc) => withEtag(await webhooks.get(rc.ctx, rc.params.id!)))
    .patch('/public_api/v2/webhooks/:id', async (rc) => withEtag(await webhooks.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)))
    .delete('/public_api/v2/webhooks/:id', async (rc) => {
      await webhooks.delete(rc.ctx, rc.params.id!, rc.preconditions);
      return noContent();
    })
    .post('/public_api/v2/webhooks/:id/rotate-secret', async (rc) =>
      withEtag(await webhooks.rotateSecret(rc.ctx, rc.params.id!, rc.preconditions)),
    )
    .post('/public_api/v2/webhooks/:id/test', async (rc) => accepted(await webhooks.test(rc.ctx, rc.params.id!)))
    .get('/public_api/v2/webhooks/:id/deliveries', async (rc) => ok(await webhooks.deliveries(rc.ctx, rc.params.id!, rc.query)))
    .post('/public_api/v2/webhooks/:id/deliveries/:delivery_id/retry', async (rc) =>
      accepted(await webhooks.retry(rc.ctx, rc.params.id!, rc.params.delivery_id!)),
    )
    .post('/public_api/v2/webhooks/:id/recover', async (rc) => accepted(await webhooks.recover(rc.ctx, rc.params.id!, rc.body())));
}
