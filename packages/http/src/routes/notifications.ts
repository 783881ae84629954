import { mySettingsSchema, notificationListSpec, notificationSchema, updateMeInput, type Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** Email notifications (docs/notifications.md): the admins' list, a user's switch and one-click unsubscribe. */
export function notificationRoutes(routes: RouteTable, lectern: Lectern): void {
  const tag = 'Notifications';
  routes
    .get(
      '/api/v2/notifications',
      {
        summary: 'List email notifications, newest first',
        tag,
        scope: 'notifications:read',
        query: { list: notificationListSpec },
        response: { status: 200, schema: notificationSchema, list: true },
      },
      async (rc) => ok(await lectern.notifications.list(rc.ctx, rc.query)),
    )
    .patch(
      '/api/v2/me',
      {
        summary: "Change the caller's own settings (email notifications on or off)",
        tag,
        scope: 'token',
        request: updateMeInput,
        response: { status: 200, schema: mySettingsSchema },
      },
      async (rc) => ok(await lectern.notifications.updateMine(rc.ctx, rc.body())),
    )
    // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` without credentials; the body is not needed
    .post(
      '/unsubscribe/:key',
      {
        summary: "One-click unsubscribe (RFC 8058): turns the message's recipient's email notifications off (the key is the credential)",
        tag,
        scope: null,
        response: { status: 200, schema: mySettingsSchema },
      },
      async (rc) => {
        await lectern.notifications.unsubscribe(rc.params.key);
        return ok({ email_notifications: false });
      },
    );
}
