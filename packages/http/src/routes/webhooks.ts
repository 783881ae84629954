import type { Lectern } from '@lectern/core';
import { accepted, noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const BASE = '/public_api/v2/webhooks';

export function webhookRoutes(routes: RouteTable, lectern: Lectern): void {
  const webhooks = lectern.webhooks;
  routes
    // before /:id, which would otherwise take `event-catalog` for an id
    .get(`${BASE}/event-catalog`, (rc) => ok(webhooks.catalog(rc.ctx)))
    .get(BASE, async (rc) => ok(await webhooks.list(rc.ctx, rc.query)))
    .post(BASE, async (rc) => withEtag(await webhooks.create(rc.ctx, rc.body()), undefined, 201))
    .get(`${BASE}/:id`, async (rc) => withEtag(await webhooks.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch(`${BASE}/:id`, async (rc) =>
      withEtag(await webhooks.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    )
    .delete(`${BASE}/:id`, async (rc) => {
      await webhooks.delete(rc.ctx, rc.params.id!, { ifMatch: rc.header('if-match') });
      return noContent();
    })
    .post(`${BASE}/:id/rotate-secret`, async (rc) =>
      withEtag(await webhooks.rotateSecret(rc.ctx, rc.params.id!, { ifMatch: rc.header('if-match') }), undefined),
    )
    .post(`${BASE}/:id/test`, async (rc) => accepted(await webhooks.test(rc.ctx, rc.params.id!)))
    .get(`${BASE}/:id/deliveries`, async (rc) => ok(await webhooks.deliveries(rc.ctx, rc.params.id!, rc.query)));
}
