import type { Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** Email notifications (docs/notifications.md): the admins' list, a user's switch and one-click unsubscribe. */
export function notificationRoutes(routes: RouteTable, lectern: Lectern): void {
  routes
    .get('/api/v2/notifications', async (rc) => ok(await lectern.notifications.list(rc.ctx, rc.query)))
    .patch('/api/v2/me', async (rc) => ok(await lectern.notifications.updateMine(rc.ctx, rc.body())))
    // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` without credentials; the body is not needed
    .publicPost('/unsubscribe/:key', async (rc) => {
      await lectern.notifications.unsubscribe(rc.params.key!);
      return ok({ email_notifications: false });
    });
}
