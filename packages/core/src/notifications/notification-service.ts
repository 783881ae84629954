/** `GET /notifications/` for admins, one-click unsubscribe, and a user's own email switch. */
import { z } from 'zod';
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import { notificationListSpec, type Notification } from './notification.ts';

/** `PATCH /me/`: what a user may change about themselves. */
export const updateMeInput = z.strictObject({ email_notifications: z.boolean().optional() });
export const mySettingsSchema = z.object({ email_notifications: z.boolean() });
export type MySettings = z.infer<typeof mySettingsSchema>;

export class NotificationService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<Notification>> {
    authorize(ctx.actor, 'notifications:read');
    const query = parseListQuery(notificationListSpec, params);
    return toListResult(query, await this.deps.storage.notifications.list(query), (notification) => notification);
  }

  /** RFC 8058 one-click: the key in the address is the credential, and it can only turn email off. */
  async unsubscribe(key: string): Promise<void> {
    const known = /^[A-Za-z0-9_-]{32}$/.test(key) && (await this.deps.storage.transaction((tx) => tx.notifications.unsubscribe(key)));
    if (!known) throw notFound('Unsubscribe address');
  }

  /** `PATCH /me/`: needs no scope beyond being the user, as `GET /me/` does. */
  async updateMine(ctx: RequestContext, body: InputOf<typeof updateMeInput>): Promise<MySettings> {
    if (ctx.actor.kind !== 'user') throw badRequest('The application itself (the system actor) is not a user.');
    const input = parseInput(updateMeInput, body);
    const userId = ctx.actor.userId;
    const publicId = ctx.actor.publicId;
    return this.deps.storage.transaction(async (tx) => {
      const before = await tx.notifications.emailNotifications(userId);
      if (input.email_notifications !== undefined && input.email_notifications !== before) {
        await tx.notifications.setEmailNotifications(userId, input.email_notifications);
        await this.deps.audit.record(tx, ctx, 'user.updated', publicId, {
          email_notifications: { from: before, to: input.email_notifications },
        });
      }
      return { email_notifications: input.email_notifications ?? before };
    });
  }
}
