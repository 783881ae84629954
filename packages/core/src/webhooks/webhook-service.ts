import { redactedChange } from '../audit/audit-diff.ts';
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { badRequest, conflict, fieldError, LecternError, notFound } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import {
  parseListQuery,
  toCursorListResult,
  toListResult,
  type CursorListResult,
  type ListResult,
  type QueryParams,
} from '../shared/list-query.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import { eventCatalog, type EventFamilyInfo } from './event-catalog.ts';
import { mayDeliver } from './delivery-prepare.ts';
import { isAttemptId, parseAttemptQuery, PING_EVENT_TYPE, recoverDeliveriesInput, type DeliveryAttempt } from './webhook-delivery.ts';
import { cancelOwedDeliveries } from './owed-deliveries.ts';
import { generateWebhookSecret } from './webhook-signature.ts';
import {
  createWebhookInput,
  isWebhookId,
  updateWebhookInput,
  WEBHOOK_ID_PREFIX,
  webhookListSpec,
  withSecret,
  type WebhookEndpointRecord,
  type WebhookSubscription,
  type WebhookSubscriptionWithSecret,
} from './webhook-subscription.ts';
import { checkWebhookTarget, normalizedWebhookUrl } from './webhook-target.ts';

export class WebhookService {
  constructor(private readonly deps: ServiceDeps) {}

  catalog(ctx: RequestContext): { readonly data: readonly EventFamilyInfo[] } {
    this.gate(ctx, 'webhooks:read');
    return eventCatalog;
  }

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<WebhookSubscription>> {
    this.gate(ctx, 'webhooks:read');
    const query = parseListQuery(webhookListSpec, params);
    return toListResult(query, await this.deps.storage.webhookEndpoints.list(query), (record) => record.view);
  }

  async get(ctx: RequestContext, id: string): Promise<WebhookSubscriptionWithSecret> {
    this.gate(ctx, 'webhooks:read');
    return withSecret(await this.require(this.deps.storage, id));
  }

  async create(ctx: RequestContext, body: InputOf<typeof createWebhookInput>): Promise<WebhookSubscriptionWithSecret> {
    this.gate(ctx, 'webhooks:write');
    const input = parseInput(createWebhookInput, body);
    const url = await this.checkedTarget(input.url);
    return this.deps.storage.transaction(async (tx) => {
      const record = await tx.webhookEndpoints.insert({
        publicId: this.deps.ids.prefixed(WEBHOOK_ID_PREFIX),
        url,
        events: input.events,
        description: input.description,
        isActive: input.is_active,
        secret: generateWebhookSecret(),
        created: nowIso(this.deps.clock),
      });
      // no changes recorded: the new endpoint's secret must not reach the log
      await this.deps.audit.record(tx, ctx, 'webhook_endpoint.created', record.view.id);
      return withSecret(record);
    });
  }

  async update(
    ctx: RequestContext,
    id: string,
    body: InputOf<typeof updateWebhookInput>,
    options: WriteOptions = {},
  ): Promise<WebhookSubscriptionWithSecret> {
    this.gate(ctx, 'webhooks:write');
    const input = parseInput(updateWebhookInput, body);
    // DNS before the transaction: a slow resolver must not hold the database's write lock.
    const url = input.url !== undefined ? await this.checkedTarget(input.url) : undefined;
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, id);
      assertIfMatch(options.ifMatch, withSecret(current));
      const activating = input.is_active === true;
      const deactivating = input.is_active === false && current.view.is_active;
      await tx.webhookEndpoints.update(current.id, {
        ...(url !== undefined ? { url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
        // a person's decision replaces the service's: re-enabling starts a fresh failure count
        ...(activating || deactivating ? { disabledReason: null } : {}),
        ...(activating ? { firstFailureAt: null } : {}),
        modified: nowIso(this.deps.clock),
      });
      if (deactivating) await cancelOwedDeliveries(tx, current.id);
      const after = (await tx.webhookEndpoints.findById(current.id))!;
      // the views without the secret: an update never changes it, and the log never holds it
      await this.deps.audit.recordUpdate(tx, ctx, 'webhook_endpoint.updated', after.view.id, current.view, after.view);
      return withSecret(after);
    });
  }

  async delete(ctx: RequestContext, id: string, options: WriteOptions = {}): Promise<void> {
    this.gate(ctx, 'webhooks:write');
    await this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, id);
      assertIfMatch(options.ifMatch, withSecret(current));
      await tx.webhookEndpoints.softDelete(current.id, nowIso(this.deps.clock));
      await tx.webhookDeliveries.cancelPending(current.id);
      await this.deps.audit.record(tx, ctx, 'webhook_endpoint.deleted', current.view.id);
    });
  }

  /** The old secret stops signing the moment this commits: every attempt reads the secret anew. */
  async rotateSecret(ctx: RequestContext, id: string, options: WriteOptions = {}): Promise<WebhookSubscriptionWithSecret> {
    this.gate(ctx, 'webhooks:write');
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, id);
      assertIfMatch(options.ifMatch, withSecret(current));
      await tx.webhookEndpoints.update(current.id, { secret: generateWebhookSecret(), modified: nowIso(this.deps.clock) });
      await this.deps.audit.record(tx, ctx, 'webhook_endpoint.secret_rotated', current.view.id, redactedChange('secret'));
      return withSecret((await tx.webhookEndpoints.findById(current.id))!);
    });
  }

  /** Queues a ping for this endpoint alone, active or not, and answers with its event id. */
  async test(ctx: RequestContext, id: string): Promise<{ event_id: string }> {
    this.gate(ctx, 'webhooks:write');
    return this.deps.storage.transaction(async (tx) => {
      const endpoint = await this.require(tx, id);
      const [event] = await this.deps.outbox.record(tx, {
        type: PING_EVENT_TYPE,
        object: { webhook_id: endpoint.view.id, message: 'ping' },
      });
      await tx.webhookDeliveries.insert({
        endpointId: endpoint.id,
        eventId: event!.id,
        eventType: PING_EVENT_TYPE,
        dueAt: event!.created_at,
      });
      return { event_id: event!.id };
    });
  }

  async deliveries(ctx: RequestContext, id: string, params: QueryParams): Promise<CursorListResult<DeliveryAttempt>> {
    this.gate(ctx, 'webhooks:read');
    const query = parseAttemptQuery(params);
    const endpoint = await this.require(this.deps.storage, id);
    const page = await this.deps.storage.webhookDeliveries.listAttempts(endpoint.id, query);
    if (page === null) throw badRequest("Query parameter 'cursor' is not a cursor this list returned.");
    return toCursorListResult(query.pageSize, page, (attempt) => attempt.id);
  }

  /**
   * One more attempt of the event of attempt `attemptId`, now (same webhook-id, fresh signature),
   * even after the schedule gave up. The delivery engine sends it: it is durable from the commit.
   */
  async retry(ctx: RequestContext, id: string, attemptId: string): Promise<{ event_id: string }> {
    this.gate(ctx, 'webhooks:write');
    return this.deps.storage.transaction(async (tx) => {
      const endpoint = await this.require(tx, id);
      const delivery = isAttemptId(attemptId) ? await tx.webhookDeliveries.findAttemptDelivery(endpoint.id, attemptId) : undefined;
      if (!delivery) throw notFound('Delivery');
      if (!mayDeliver(endpoint, delivery.eventType)) throw inactive();
      const now = nowIso(this.deps.clock);
      if (delivery.state === 'pending' && delivery.leaseUntil !== null && delivery.leaseUntil > now) {
        throw conflict('conflict', 'This event is being sent right now; its attempt will appear in the log in a moment.');
      }
      await tx.webhookDeliveries.attemptAgain(delivery.deliveryId, now);
      await this.deps.audit.record(tx, ctx, 'webhook_endpoint.delivery_retried', endpoint.view.id);
      return { event_id: delivery.eventId };
    });
  }

  /** Attempts again, once and in event order, every event whose last attempt failed since `since`. */
  async recover(ctx: RequestContext, id: string, body: InputOf<typeof recoverDeliveriesInput>): Promise<{ count: number }> {
    this.gate(ctx, 'webhooks:write');
    const input = parseInput(recoverDeliveriesInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const endpoint = await this.require(tx, id);
      if (!endpoint.view.is_active) throw inactive();
      const count = await tx.webhookDeliveries.attemptFailedAgain(endpoint.id, input.since, nowIso(this.deps.clock));
      if (count > 0) await this.deps.audit.record(tx, ctx, 'webhook_endpoint.recovered', endpoint.view.id);
      return { count };
    });
  }

  /** 503 before anything else when webhooks are off: the routes exist, the feature does not. */
  private gate(ctx: RequestContext, scope: Scope): void {
    if (!this.deps.config.webhooks.enabled) {
      throw new LecternError('service_unavailable', 'Webhooks are not enabled on this server.');
    }
    authorize(ctx.actor, scope);
  }

  /** The URL to store: refused with a field error unless it is an acceptable target, else normalised. */
  private async checkedTarget(url: string): Promise<string> {
    const problem = await checkWebhookTarget(url, { allowPrivateTargets: this.deps.config.webhooks.allowPrivateTargets });
    if (problem !== null) throw fieldError('url', problem);
    return normalizedWebhookUrl(url);
  }

  private async require(stores: Stores, id: string): Promise<WebhookEndpointRecord> {
    const record = isWebhookId(id) ? await stores.webhookEndpoints.findByPublicId(id) : undefined;
    if (!record) throw notFound('Webhook subscription');
    return record;
  }
}

/** Only pings reach an endpoint that is turned off (delivery-prepare.ts): asking for more would be lost silently. */
const inactive = () => conflict('conflict', 'This webhook endpoint is turned off; turn it on (is_active) before sending its events again.');
