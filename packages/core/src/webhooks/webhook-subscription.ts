/**
 * Webhook subscriptions (spec "Webhook subscription", docs/webhooks.md): the API shapes, the stored
 * record, the create/update bodies and the list spec.
 */
import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { descriptionField } from '../shared/schema.ts';
import { allEventTypes, eventCatalog, expandEventPatterns } from './event-catalog.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

export const WEBHOOK_ID_PREFIX = 'ep_';

const WEBHOOK_ID = /^ep_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Ids are opaque to clients, but anything not shaped like one cannot exist, so it is a 404 without a query. */
export const isWebhookId = (value: string): boolean => WEBHOOK_ID.test(value);

/** A subscription as lists return it: everything but the secret. */
export const webhookSubscriptionSchema = z
  .object({
    id: z.string(),
    url: listed(z.string(), { sort: true, search: true }),
    events: z.array(z.string()),
    description: listed(z.string(), { search: true }),
    is_active: listed(z.boolean(), { filter: true }),
    /** why the service turned the endpoint off (410, or failing too long); null when active or turned off by a person */
    disabled_reason: z.string().nullable(),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { range: 'datetime', sort: true }),
  })
  .register(apiSchemaNames, { id: 'WebhookSubscription' });
export type WebhookSubscription = z.infer<typeof webhookSubscriptionSchema>;

/** A single subscription (create, get, update, rotate) carries its signing secret. */
export const webhookSubscriptionWithSecretSchema = webhookSubscriptionSchema
  .extend({ secret: z.string() })
  .register(apiSchemaNames, { id: 'WebhookSubscriptionWithSecret' });
export type WebhookSubscriptionWithSecret = z.infer<typeof webhookSubscriptionWithSecretSchema>;

/** A stored subscription: the public view plus the secret and the delivery engine's bookkeeping. */
export interface WebhookEndpointRecord extends StoredRecord<WebhookSubscription> {
  secret: string;
  /** start of the current run of failed attempts; null after a success */
  firstFailureAt: string | null;
}

export const withSecret = (record: WebhookEndpointRecord): WebhookSubscriptionWithSecret => ({
  ...record.view,
  secret: record.secret,
});

/**
 * Explicit names and `family.*` wildcards, stored expanded (spec "Subscribing" 1–3). The reachability
 * of `url` needs DNS, so the service checks it after this synchronous schema.
 */
const eventsField = () =>
  z
    .array(z.string().max(100))
    .max(500)
    .transform((patterns, ctx) => {
      const expanded = expandEventPatterns(patterns);
      if ('events' in expanded) return expanded.events;
      for (const message of expanded.errors) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    // what the transform accepts, for the OpenAPI document: known types and `family.*`, at least one
    .meta({
      minItems: 1,
      items: { type: 'string', enum: [...allEventTypes, ...eventCatalog.data.map(({ family }) => `${family}.*`)] },
    });

/** an http(s) URL; whether it is one Lectern may deliver to is checked by the service */
const urlField = () => z.string().trim().min(1).meta({ format: 'uri' });

export const createWebhookInput = z
  .strictObject({
    url: urlField(),
    events: eventsField(),
    description: descriptionField().default(''),
    is_active: z.boolean().default(true),
  })
  .register(apiSchemaNames, { id: 'WebhookSubscriptionCreate' });
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

export const updateWebhookInput = z
  .strictObject({
    url: urlField().optional(),
    events: eventsField().optional(),
    description: descriptionField().optional(),
    is_active: z.boolean().optional(),
  })
  .register(apiSchemaNames, { id: 'WebhookSubscriptionUpdate' });
export type UpdateWebhookInput = z.input<typeof updateWebhookInput>;

export const webhookListSpec = listSpecOf(webhookSubscriptionSchema, { defaultOrdering: ['created'] });
