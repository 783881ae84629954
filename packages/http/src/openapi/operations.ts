/**
 * The description of every route, keyed exactly as the route is registered (`METHOD /path/:id`).
 * A route registered without an entry here fails test/http/openapi.test.ts, which lists it: add
 * its line in the area's block below. Schemas are the ones the services validate and shape with,
 * so the description cannot say one thing while the server does another:
 *
 * - `request`/`response.schema`: the zod schemas themselves; each becomes a named component
 *   (core's names in schema-names.ts, `named()` here, else one derived from the operation);
 * - `query.list`: the ListSpec the service parses the query string with (filters, bounds, `search`,
 *   `ordering`); `query.extra`: parameters read outside a ListSpec, as JSON Schema;
 * - `requestMediaType` for a body that is not JSON.
 *
 * test/http/openapi-contract-fuzz.test.ts then sends every operation generated requests and holds
 * the answers to what is written here.
 */
import {
  apiTokenSchema,
  assignmentListSpec,
  assignmentRouteActions,
  assignmentSchema,
  auditEntrySchema,
  batchItemsField,
  bulkEventItemInput,
  bulkJobListSpec,
  bulkJobSummarySchema,
  bulkSeriesItemInput,
  bulkUserItem,
  calendarFeedSchema,
  mySettingsSchema,
  notificationListSpec,
  notificationSchema,
  updateMeInput,
  channelListSpec,
  channelSchema,
  contentListSpec,
  contentSummarySchema,
  contentTypeViewSchemas,
  createAssignmentInput,
  createChannelInput,
  createContentInputs,
  createEnrollmentInput,
  createEventInput,
  createGroupInput,
  createLocationInput,
  createSavedReportInput,
  createSeriesInput,
  createTokenInput,
  createUserInput,
  createWebhookInput,
  deliveryAttemptSchema,
  dropInput,
  enrollmentActions,
  enrollmentListSpec,
  enrollmentSchema,
  eventListSpec,
  eventViewSchema,
  facilitatorsInput,
  facilitatorsSchema,
  feedbackInput,
  groupListSpec,
  groupSchema,
  importKinds,
  importSchema,
  insightFilterSpec,
  insightKinds,
  jobItemListSpec,
  jobItemSchema,
  jobSchema,
  meSchema,
  locationListSpec,
  locationSchema,
  MAX_BULK_ASSIGNMENTS,
  MAX_BULK_ENROLLMENTS,
  MAX_BULK_EVENT_UPDATES,
  MAX_BULK_USERS,
  mediaStatusReportInput,
  membershipInput,
  progressInput,
  recoverDeliveriesInput,
  replaceMembershipInput,
  replaceTagsInput,
  savedReportListSpec,
  savedReportSchema,
  signInExchangeInput,
  signInOptionsSchema,
  signInExchangeSchema,
  seriesListSpec,
  seriesViewSchema,
  tagNamesField,
  tagsInput,
  tokenListSpec,
  typedContentListSpec,
  updateAssignmentInput,
  updateChannelInput,
  updateContentInputs,
  updateContentItemInput,
  updateEventInput,
  updateGroupInput,
  updateLocationInput,
  updateSavedReportInput,
  updateSeriesInput,
  updateUserInput,
  updateWebhookInput,
  userListSpec,
  userSchema,
  webhookListSpec,
  webhookSubscriptionSchema,
  webhookSubscriptionWithSecretSchema,
  contentTypeCollections,
  type ContentType,
  type ListSpec,
  type Scope,
} from '@lectern/core';
import { z } from 'zod';
import type { Method } from '../router.ts';
import { aboutOperation } from './about-operations.ts';

export interface OperationSpec {
  summary: string;
  /** the section of the reference page (and of docs/*.md's links) */
  tag: string;
  /** the token scope the route requires; `token` for any valid token; `null` for routes open without one */
  scope: Scope | 'token' | null;
  request?: z.ZodType;
  /** the request body's media type when it is not JSON (an import's CSV file) */
  requestMediaType?: string;
  /** the success status and body; `list` wraps the schema in the `{data, meta}` page envelope */
  response: { status: number; schema?: z.ZodType; list?: boolean; etag?: boolean; alsoStatuses?: number[]; mediaType?: string };
  /**
   * The query string: a list's ListSpec (the one the service parses with, so every filter, bound,
   * `search` and sortable field is described), and parameters read outside a ListSpec (JSON Schema).
   */
  query?: {
    list?: ListSpec;
    paging?: boolean;
    extra?: Record<string, { schema: Record<string, unknown>; description: string; required?: boolean }>;
  };
  /** probes answer before rate limiting, so without its headers */
  rateLimited?: false;
}

export type OperationKey = `${Method} ${string}`;

/**
 * Component names for the schemas below that are not a core export (core's are named in
 * schema-names.ts); a schema without a name is named after its operation.
 */
export const localSchemaNames = new Map<z.ZodType, string>();
const named = <T extends z.ZodType>(name: string, schema: T): T => {
  localSchemaNames.set(schema, name);
  return schema;
};

const anyObject = named('AnyObject', z.object({}).passthrough());
/**
 * A bulk job's body: the job engine checks the strict wrapper (bulkEnvelope, its key and item count),
 * each item is checked when the job runs it, so an invalid item fails in the job's items, not with a 422.
 */
const bulkBody = (name: string, key: string, max: number, item: z.ZodType) =>
  named(name, z.strictObject({ [key]: z.array(item).min(1).max(max) }));
const batchItems = z.strictObject({ items: batchItemsField() });
// SyncBatchResult (core/shared/sync-batch.ts) is a TypeScript interface; this mirrors it
const batchResult = named(
  'BatchResult',
  z.object({
    data: z.object({
      succeeded: z.array(z.object({ public_id: z.string(), index: z.number().int() })),
      failed: z.array(
        z.object({
          index: z.number().int(),
          error: z.object({ code: z.string(), message: z.string(), request_id: z.string() }).passthrough(),
        }),
      ),
    }),
    meta: z.object({ total: z.number().int(), succeeded_count: z.number().int(), failed_count: z.number().int() }),
  }),
);
/** a synchronous batch: 200 all succeeded, 207 some did (same body), 422 none did */
const batch = (spec: OperationSpec): OperationSpec => ({ ...spec, response: { ...spec.response, alsoStatuses: [207] } });
const tagsResult = named('TagList', z.object({ data: z.array(z.string()) }));

const resource = (tag: string, scope: Scope, schema: z.ZodType) => ({
  jobItems: (summary: string): OperationSpec => ({
    summary,
    tag,
    scope,
    query: { list: jobItemListSpec },
    response: { status: 200, schema: jobItemSchema, list: true },
  }),
  list: (summary: string, list: ListSpec): OperationSpec => ({
    summary,
    tag,
    scope,
    query: { list },
    response: { status: 200, schema, list: true },
  }),
  get: (summary: string): OperationSpec => ({ summary, tag, scope, response: { status: 200, schema, etag: true } }),
  write: (summary: string, request: z.ZodType | undefined, status = 200, body: z.ZodType | null = schema): OperationSpec => ({
    summary,
    tag,
    scope: scope.replace(':read', ':write') as Scope,
    ...(request ? { request } : {}),
    response: { status, ...(body ? { schema: body } : {}), etag: status !== 204 && body === schema },
  }),
});

/** Each content type's own collection (core's table, which routes/content.ts registers). */
const typeCollections = Object.entries(contentTypeCollections).map(([type, path]) => [path, type as ContentType] as const);

function* userOperations(): Generator<[OperationKey, OperationSpec]> {
  const users = resource('Users', 'users:read', userSchema);
  yield [
    'POST /api/v2/users/bulk',
    users.write('Create users in bulk (a job)', bulkBody('UserBulkCreate', 'users', MAX_BULK_USERS, bulkUserItem), 202, jobSchema),
  ];
  yield ['GET /api/v2/users/bulk/:id', { ...users.get('A bulk user job'), response: { status: 200, schema: jobSchema } }];
  yield ['GET /api/v2/users/bulk/:id/items', users.jobItems('The per-item results of a bulk user job')];
  yield ['GET /api/v2/users', users.list('List users', userListSpec)];
  yield ['POST /api/v2/users', users.write('Create a user', createUserInput, 201)];
  yield ['GET /api/v2/users/:id', users.get('Get a user')];
  yield ['PATCH /api/v2/users/:id', users.write('Update a user', updateUserInput)];
}

function* groupOperations(): Generator<[OperationKey, OperationSpec]> {
  const groups = resource('Groups', 'groups:read', groupSchema);
  yield ['GET /api/v2/groups', groups.list('List groups', groupListSpec)];
  yield ['POST /api/v2/groups', groups.write('Create a group', createGroupInput, 201)];
  yield ['GET /api/v2/groups/:id', groups.get('Get a group')];
  yield ['PATCH /api/v2/groups/:id', groups.write('Update a group', updateGroupInput)];
  yield ['DELETE /api/v2/groups/:id', groups.write('Delete a group', undefined, 204, null)];
  yield [
    'GET /api/v2/groups/:id/members',
    { ...groups.list('List a group’s members', userListSpec), response: { status: 200, schema: userSchema, list: true } },
  ];
  for (const relation of ['members', 'owners']) {
    yield [`POST /api/v2/groups/:id/${relation}`, groups.write(`Add ${relation}`, membershipInput)];
    yield [`DELETE /api/v2/groups/:id/${relation}`, groups.write(`Remove ${relation}`, membershipInput)];
    yield [`PUT /api/v2/groups/:id/${relation}`, groups.write(`Replace the ${relation}`, replaceMembershipInput)];
  }
}

function* tokenOperations(): Generator<[OperationKey, OperationSpec]> {
  const tokens = resource('API tokens', 'tokens:read', apiTokenSchema);
  yield ['GET /api/v2/api-tokens', tokens.list('List API tokens', tokenListSpec)];
  yield [
    'POST /api/v2/api-tokens',
    tokens.write('Issue an API token (its secret is shown once)', createTokenInput, 201, apiTokenSchema.extend({ token: z.string() })),
  ];
  yield ['GET /api/v2/api-tokens/:id', tokens.get('Get an API token')];
  yield ['DELETE /api/v2/api-tokens/:id', tokens.write('Revoke an API token', undefined, 204, null)];
}

function* contentOperations(): Generator<[OperationKey, OperationSpec]> {
  const items = resource('Content', 'content:read', contentSummarySchema);
  yield ['POST /api/v2/content-items/bulk/archive', batch(items.write('Archive items (per-item results)', batchItems, 200, batchResult))];
  yield [
    'POST /api/v2/content-items/bulk/unarchive',
    batch(items.write('Unarchive items (per-item results)', batchItems, 200, batchResult)),
  ];
  const bulkTags = named('BulkTags', batchItems.extend({ tags: tagNamesField().min(1) }));
  yield ['POST /api/v2/content-items/bulk/tags', batch(items.write('Add tags to items', bulkTags, 200, batchResult))];
  yield ['DELETE /api/v2/content-items/bulk/tags', batch(items.write('Remove tags from items', bulkTags, 200, batchResult))];
  yield [
    'PUT /api/v2/content-items/bulk/tags',
    batch(
      items.write('Replace the tags of items', named('BulkTagsReplace', batchItems.extend({ tags: tagNamesField() })), 200, batchResult),
    ),
  ];
  yield ['GET /api/v2/content-items', items.list('List content items of every type', contentListSpec)];
  yield ['GET /api/v2/content-items/:id', items.get('Get a content item')];
  yield ['PATCH /api/v2/content-items/:id', items.write('Update the shared fields of an item', updateContentItemInput)];
  yield ['DELETE /api/v2/content-items/:id', items.write('Delete a content item', undefined, 204, null)];
  yield ['GET /api/v2/content-items/:id/tags', { ...items.get('An item’s tags'), response: { status: 200, schema: tagsResult } }];
  yield [
    'POST /api/v2/content-items/:id/media-status',
    items.write('Report media processing status', mediaStatusReportInput, 200, anyObject),
  ];
  yield ['POST /api/v2/content-items/:id/tags', items.write('Add tags', tagsInput, 200, tagsResult)];
  yield ['DELETE /api/v2/content-items/:id/tags', items.write('Remove tags', tagsInput, 200, tagsResult)];
  yield ['PUT /api/v2/content-items/:id/tags', items.write('Replace the tags', replaceTagsInput, 200, tagsResult)];
  for (const [path, type] of typeCollections) {
    const typed = resource('Content', 'content:read', contentTypeViewSchemas[type]);
    yield [`GET /api/v2/${path}`, typed.list(`List ${path}`, typedContentListSpec)];
    yield [`POST /api/v2/${path}`, typed.write(`Create a ${type}`, createContentInputs[type], 201)];
    yield [`GET /api/v2/${path}/:id`, typed.get(`Get a ${type}`)];
    yield [`PATCH /api/v2/${path}/:id`, typed.write(`Update a ${type}`, updateContentInputs[type])];
  }
  const channels = resource('Channels', 'content:read', channelSchema);
  yield ['GET /api/v2/channels', channels.list('List channels', channelListSpec)];
  yield ['POST /api/v2/channels', channels.write('Create a channel', createChannelInput, 201)];
  yield ['GET /api/v2/channels/:id', channels.get('Get a channel')];
  yield ['PATCH /api/v2/channels/:id', channels.write('Update a channel', updateChannelInput)];
}

function* assignmentOperations(): Generator<[OperationKey, OperationSpec]> {
  const assignments = resource('Assignments', 'assignments:read', assignmentSchema);
  yield [
    'POST /api/v2/assignments/bulk',
    assignments.write(
      'Create assignments in bulk (a job)',
      bulkBody('AssignmentBulkCreate', 'assignments', MAX_BULK_ASSIGNMENTS, createAssignmentInput),
      202,
      jobSchema,
    ),
  ];
  yield ['GET /api/v2/assignments/bulk/:id', { ...assignments.get('A bulk assignment job'), response: { status: 200, schema: jobSchema } }];
  yield ['GET /api/v2/assignments/bulk/:id/items', assignments.jobItems('The per-item results of a bulk assignment job')];
  yield ['GET /api/v2/assignments', assignments.list('List assignments', assignmentListSpec)];
  yield ['POST /api/v2/assignments', assignments.write('Assign content (201 new, 200 an existing active one)', createAssignmentInput, 201)];
  yield ['GET /api/v2/assignments/:id', assignments.get('Get an assignment')];
  yield ['PATCH /api/v2/assignments/:id', assignments.write('Update an assignment', updateAssignmentInput)];
  yield ['DELETE /api/v2/assignments/:id', assignments.write('Delete an assignment', undefined, 204, null)];
  yield ['POST /api/v2/assignments/:id/progress', assignments.write('Record progress', progressInput)];
  yield ['POST /api/v2/assignments/:id/feedback', assignments.write('Leave feedback', feedbackInput)];
  for (const action of assignmentRouteActions) {
    yield [`POST /api/v2/assignments/:id/${action}`, assignments.write(`Action: ${action}`, action === 'drop' ? dropInput : undefined)];
  }
  for (const kind of insightKinds) {
    yield [
      `GET /api/v2/insights/assignments/${kind}`,
      {
        summary: `Assignment insight: ${kind}`,
        tag: 'Insights',
        scope: 'insights:read',
        query: { list: insightFilterSpec },
        response: { status: 200, schema: anyObject },
      },
    ];
  }
}

function* eventOperations(): Generator<[OperationKey, OperationSpec]> {
  const kinds = [
    ['/api/v2/events', 'Events', eventViewSchema, createEventInput, updateEventInput, 'events', bulkEventItemInput, eventListSpec, 'Event'],
    [
      '/api/v2/event-series',
      'Event series',
      seriesViewSchema,
      createSeriesInput,
      updateSeriesInput,
      'event_series',
      bulkSeriesItemInput,
      seriesListSpec,
      'EventSeries',
    ],
  ] as const;
  for (const [base, tag, view, create, update, key, bulkItem, listSpec, name] of kinds) {
    const events = resource(tag, 'events:read', view);
    yield [
      `PATCH ${base}/bulk`,
      events.write('Update in bulk (a job)', bulkBody(`${name}BulkUpdate`, key, MAX_BULK_EVENT_UPDATES, bulkItem), 202, jobSchema),
    ];
    yield [`GET ${base}/bulk/:id`, { ...events.get('A bulk update job'), response: { status: 200, schema: jobSchema } }];
    yield [`GET ${base}/bulk/:id/items`, events.jobItems('The per-item results of a bulk update job')];
    yield [`GET ${base}`, events.list(`List ${tag.toLowerCase()}`, listSpec)];
    yield [`POST ${base}`, events.write('Create', create, 201)];
    yield [`GET ${base}/:id`, events.get('Get one')];
    yield [`PATCH ${base}/:id`, events.write('Update', update)];
    yield [`DELETE ${base}/:id`, events.write('Delete', undefined, 204, null)];
    yield [
      `GET ${base}/:id/facilitators`,
      { ...events.get('The facilitators'), response: { status: 200, schema: facilitatorsSchema, etag: true } },
    ];
    yield [
      `PUT ${base}/:id/facilitators`,
      { ...events.write('Replace the facilitators', facilitatorsInput), response: { status: 200, schema: facilitatorsSchema, etag: true } },
    ];
  }
  const locations = resource('Locations', 'events:read', locationSchema);
  yield ['GET /api/v2/locations', locations.list('List locations', locationListSpec)];
  yield ['POST /api/v2/locations', locations.write('Create a location', createLocationInput, 201)];
  yield ['GET /api/v2/locations/:id', locations.get('Get a location')];
  yield [
    'PATCH /api/v2/locations/:id',
    locations.write(
      'Rename a location, or change its time zone while no event or series is held there (409 otherwise)',
      updateLocationInput,
    ),
  ];
  const enrollments = resource('Enrollments', 'enrollments:read', enrollmentSchema);
  yield [
    'POST /api/v2/enrollments/bulk',
    enrollments.write(
      'Enroll in bulk (a job)',
      bulkBody('EnrollmentBulkCreate', 'enrollments', MAX_BULK_ENROLLMENTS, createEnrollmentInput),
      202,
      jobSchema,
    ),
  ];
  yield ['GET /api/v2/enrollments/bulk/:id', { ...enrollments.get('A bulk enrollment job'), response: { status: 200, schema: jobSchema } }];
  yield ['GET /api/v2/enrollments/bulk/:id/items', enrollments.jobItems('The per-item results of a bulk enrollment job')];
  yield ['GET /api/v2/enrollments', enrollments.list('List enrollments', enrollmentListSpec)];
  yield ['POST /api/v2/enrollments', enrollments.write('Enroll (201 new, 200 an existing active one)', createEnrollmentInput, 201)];
  yield ['GET /api/v2/enrollments/:id', enrollments.get('Get an enrollment')];
  for (const action of enrollmentActions)
    yield [`POST /api/v2/enrollments/:id/${action}`, enrollments.write(`Action: ${action}`, undefined)];
}

function* reportOperations(): Generator<[OperationKey, OperationSpec]> {
  const reports = resource('Saved reports', 'reports:read', savedReportSchema);
  yield ['GET /api/v2/saved-reports', reports.list('List saved reports', savedReportListSpec)];
  yield ['POST /api/v2/saved-reports', reports.write('Save a report', createSavedReportInput, 201)];
  yield ['GET /api/v2/saved-reports/:id', reports.get('Get a saved report')];
  yield ['PATCH /api/v2/saved-reports/:id', reports.write('Update a saved report', updateSavedReportInput)];
  yield ['DELETE /api/v2/saved-reports/:id', reports.write('Delete a saved report', undefined, 204, null)];
  yield [
    'GET /api/v2/saved-reports/:id/results',
    {
      ...reports.list('Run a saved report', savedReportListSpec),
      // the report's own resource decides its filters and sortable fields, so only paging is described
      query: {
        paging: true,
        extra: {
          ordering: { schema: { type: 'string' }, description: "Sortable fields of the report's resource, `-` first for descending" },
        },
      },
      response: { status: 200, schema: anyObject, list: true },
    },
  ];
}

/** Imports need the scope of their kind's bulk route (users:write, assignments:write, enrollments:write). */
function* importOperations(): Generator<[OperationKey, OperationSpec]> {
  const tag = 'Imports';
  yield [
    'POST /api/v2/imports',
    {
      summary: 'Upload a CSV file to import (body: the file, Content-Type text/csv; ?kind=…)',
      tag,
      scope: 'token',
      request: z.string().meta({ description: 'The CSV file: a header row naming the columns, then one row per item' }),
      requestMediaType: 'text/csv',
      query: {
        extra: {
          kind: { schema: { type: 'string', enum: [...importKinds] }, description: 'What each row creates', required: true },
          dry_run: { schema: { type: 'boolean' }, description: 'Check every row and report, writing nothing' },
          update: { schema: { type: 'boolean' }, description: 'Update the existing records rows name, instead of refusing them' },
        },
      },
      response: { status: 202, schema: importSchema },
    },
  ];
  yield [
    'GET /api/v2/imports',
    { summary: 'List imports, newest first', tag, scope: 'token', response: { status: 200, schema: importSchema, list: true } },
  ];
  yield [
    'GET /api/v2/imports/:id',
    { summary: 'Get an import and its counts', tag, scope: 'token', response: { status: 200, schema: importSchema } },
  ];
  yield [
    'POST /api/v2/imports/:id/cancel',
    { summary: 'Cancel an import', tag, scope: 'token', response: { status: 200, schema: importSchema } },
  ];
  yield [
    'GET /api/v2/imports/:id/report',
    {
      summary: 'The per-row report of the rows processed so far (CSV)',
      tag,
      scope: 'token',
      response: { status: 200, mediaType: 'text/csv' },
    },
  ];
}

function* webhookOperations(): Generator<[OperationKey, OperationSpec]> {
  const base = '/public_api/v2/webhooks';
  const hooks = resource('Webhooks', 'webhooks:read', webhookSubscriptionWithSecretSchema);
  yield [`GET ${base}/event-catalog`, { ...hooks.get('The event types'), response: { status: 200, schema: anyObject } }];
  yield [
    `GET ${base}`,
    { ...hooks.list('List subscriptions', webhookListSpec), response: { status: 200, schema: webhookSubscriptionSchema, list: true } },
  ];
  yield [`POST ${base}`, hooks.write('Subscribe', createWebhookInput, 201)];
  yield [`GET ${base}/:id`, hooks.get('Get a subscription')];
  yield [`PATCH ${base}/:id`, hooks.write('Update a subscription', updateWebhookInput)];
  yield [`DELETE ${base}/:id`, hooks.write('Delete a subscription', undefined, 204, null)];
  yield [`POST ${base}/:id/rotate-secret`, hooks.write('Rotate the signing secret', undefined)];
  yield [`POST ${base}/:id/test`, hooks.write('Send a test event', undefined, 202, z.object({ event_id: z.string() }))];
  yield [
    `POST ${base}/:id/deliveries/:delivery_id/retry`,
    hooks.write(
      "Attempt an attempt's event again, now (409 while it is being sent or the endpoint is off)",
      undefined,
      202,
      z.object({ event_id: z.string() }),
    ),
  ];
  yield [
    `POST ${base}/:id/recover`,
    hooks.write(
      'Attempt again, once and in order, every event whose last attempt failed since `since`',
      recoverDeliveriesInput,
      202,
      z.object({ count: z.number().int() }),
    ),
  ];
  yield [
    `GET ${base}/:id/deliveries`,
    {
      ...hooks.get('Delivery attempts (cursor pages)'),
      query: {
        extra: {
          page_size: { schema: { type: 'integer', minimum: 1 }, description: 'Attempts per page (25 by default, at most 100)' },
          cursor: {
            schema: { type: 'string', pattern: '^att_[0-9A-HJKMNP-TV-Z]{26}$' },
            description: 'The `next_cursor` of the previous page',
          },
          event_id: {
            schema: { type: 'string', pattern: '^msg_[0-9A-HJKMNP-TV-Z]{26}$' },
            description: 'Only the attempts to deliver this event',
          },
        },
      },
      response: { status: 200, schema: named('DeliveryAttemptPage', z.object({ data: z.array(deliveryAttemptSchema) }).passthrough()) },
    },
  ];
}

function* auditOperations(): Generator<[OperationKey, OperationSpec]> {
  const text = (description: string) => ({ schema: { type: 'string' }, description });
  const instant = { schema: { type: 'string', anyOf: [{ format: 'date-time' }, { format: 'date' }] } };
  yield [
    'GET /api/v2/audit-log',
    {
      summary: 'Who changed what: the audit log, newest first (cursor pages)',
      tag: 'Audit log',
      scope: 'audit:read',
      query: {
        extra: {
          page_size: { schema: { type: 'integer', minimum: 1 }, description: 'Entries per page (25 by default, at most 100)' },
          cursor: {
            schema: { type: 'string', pattern: '^aud_[0-9A-HJKMNP-TV-Z]{26}$' },
            description: 'The `next_cursor` of the previous page',
          },
          actor: { schema: { type: 'string', format: 'uuid' }, description: 'Only the changes made by this user (public_id)' },
          action: text('Only this action, e.g. `user.updated`'),
          resource_type: text('Only changes to this type of resource, e.g. `user`, `webhook_endpoint`'),
          resource_id: text('Only changes to the resource with this public_id'),
          occurred_at__gte: { ...instant, description: 'Only entries at or after this date or datetime (ISO 8601)' },
          occurred_at__lte: { ...instant, description: 'Only entries at or before this date or datetime (ISO 8601)' },
        },
      },
      response: {
        status: 200,
        schema: named(
          'AuditEntryPage',
          z.object({
            data: z.array(auditEntrySchema),
            meta: z.object({ page_size: z.number().int(), next_cursor: z.string().nullable() }),
          }),
        ),
      },
    },
  ];
}

/** `/healthz` and `/readyz` answer before the route table (http/src/routes/probes.ts); described all the same. */
export const probeOperations: ReadonlyMap<string, OperationSpec> = new Map([
  [
    'GET /healthz',
    {
      summary: 'The process serves',
      tag: 'Meta',
      scope: null,
      rateLimited: false,
      response: { status: 200, schema: z.object({ status: z.literal('ok') }) },
    },
  ],
  [
    'GET /readyz',
    {
      summary: 'The process serves and the database takes requests (503 otherwise)',
      tag: 'Meta',
      scope: null,
      rateLimited: false,
      response: { status: 200, schema: z.object({ status: z.literal('ok') }) },
    },
  ],
] satisfies Array<[OperationKey, OperationSpec]>);

/** Calendars (docs/notifications.md): iCalendar documents, and the personal feed's address. */
function* calendarOperations(): Generator<[OperationKey, OperationSpec]> {
  const tag = 'Calendars';
  const ics = z.string().meta({ description: 'An iCalendar document (RFC 5545)' });
  yield [
    'GET /api/v2/events/:id/calendar.ics',
    {
      summary: "The event's timeslots as an iCalendar document, one VEVENT each",
      tag,
      scope: 'events:read',
      response: { status: 200, schema: ics, mediaType: 'text/calendar', etag: true },
    },
  ];
  yield [
    'POST /api/v2/me/calendar-feed',
    {
      summary: "A new address for the caller's personal calendar feed (shown once; the previous one stops working)",
      tag,
      scope: 'enrollments:read',
      response: { status: 201, schema: calendarFeedSchema },
    },
  ];
  yield [
    'DELETE /api/v2/me/calendar-feed',
    { summary: "Turn the caller's calendar feed off", tag, scope: 'enrollments:read', response: { status: 204 } },
  ];
  yield [
    'GET /calendar/:key.ics',
    {
      summary: "A user's calendar feed: enrolled and waitlisted timeslots, open assignments' due dates (the key is the credential)",
      tag,
      scope: null,
      response: { status: 200, schema: ics, mediaType: 'text/calendar', etag: true },
    },
  ];
}

/** Email notifications (docs/notifications.md). */
function* notificationOperations(): Generator<[OperationKey, OperationSpec]> {
  const tag = 'Notifications';
  yield [
    'GET /api/v2/notifications',
    {
      summary: 'List email notifications, newest first',
      tag,
      scope: 'notifications:read',
      query: { list: notificationListSpec },
      response: { status: 200, schema: notificationSchema, list: true },
    },
  ];
  yield [
    'PATCH /api/v2/me',
    {
      summary: "Change the caller's own settings (email notifications on or off)",
      tag,
      scope: 'token',
      request: updateMeInput,
      response: { status: 200, schema: mySettingsSchema },
    },
  ];
  yield [
    'POST /unsubscribe/:key',
    {
      summary: "One-click unsubscribe (RFC 8058): turns the message's recipient's email notifications off (the key is the credential)",
      tag,
      scope: null,
      response: { status: 200, schema: mySettingsSchema },
    },
  ];
}

function* describedOperations(): Generator<[OperationKey, OperationSpec]> {
  yield [
    'GET /api/v2/openapi.json',
    { summary: 'This description (OpenAPI 3.1)', tag: 'Meta', scope: null, response: { status: 200, schema: anyObject } },
  ];
  const referenceFile = (summary: string, mediaType: string): OperationSpec => ({
    summary,
    tag: 'Meta',
    scope: null,
    response: { status: 200, schema: z.string(), mediaType },
  });
  yield ['GET /api/v2/docs', referenceFile('This description as a browsable page', 'text/html')];
  yield ['GET /api/v2/docs/reference.js', referenceFile("The page's start-up script", 'text/javascript')];
  yield ['GET /api/v2/docs/swagger-ui-bundle.js', referenceFile("The page's viewer (Swagger UI)", 'text/javascript')];
  yield ['GET /api/v2/docs/swagger-ui.css', referenceFile("The viewer's style sheet", 'text/css')];
  yield [
    'GET /metrics',
    {
      summary: "This server's own metrics, in Prometheus' text format",
      tag: 'Meta',
      scope: 'metrics:read',
      response: { status: 200, schema: z.string(), mediaType: 'text/plain' },
    },
  ];
  yield [
    'POST /api/v2/console/sign-in',
    {
      summary:
        'Exchange a one-time console sign-in link (lectern console-url) for a 12-hour token (422 on `code` when used, expired or unknown)',
      tag: 'Meta',
      scope: null,
      request: signInExchangeInput,
      response: { status: 201, schema: signInExchangeSchema },
    },
  ];
  yield [
    'GET /api/v2/console/sign-in-options',
    {
      summary: 'What the console sign-in page offers besides a token: the single sign-on button, or null when not set up',
      tag: 'Meta',
      scope: null,
      response: { status: 200, schema: signInOptionsSchema },
    },
  ];
  yield [
    'GET /console/auth/oidc',
    {
      summary: "Start a console single sign-on: 302 to the identity provider's authorization endpoint (404 when not set up)",
      tag: 'Meta',
      scope: null,
      response: { status: 302 },
    },
  ];
  yield [
    'GET /console/auth/oidc/callback',
    {
      summary:
        'Where the identity provider sends the browser back: 302 to /console/sign-in with a one-time `code`, or with `error` unknown_user, inactive_user or sign_in_failed',
      tag: 'Meta',
      scope: null,
      query: {
        extra: {
          state: { schema: { type: 'string' }, description: 'the state of the request this answers' },
          code: { schema: { type: 'string' }, description: "the provider's authorization code" },
          error: { schema: { type: 'string' }, description: "the provider's refusal, if it refused" },
        },
      },
      response: { status: 302 },
    },
  ];
  yield [
    'GET /api/v2/me',
    { summary: 'Who the caller is and what its token allows', tag: 'Users', scope: 'token', response: { status: 200, schema: meSchema } },
  ];
  yield* userOperations();
  yield* groupOperations();
  yield* tokenOperations();
  yield* contentOperations();
  yield* assignmentOperations();
  yield* eventOperations();
  yield* reportOperations();
  yield* importOperations();
  yield [
    'GET /api/v2/bulk-jobs',
    {
      summary: 'Every bulk job of every kind, newest first (admins: all; others: their own)',
      tag: 'Bulk jobs',
      scope: 'token',
      query: { list: bulkJobListSpec },
      response: { status: 200, schema: bulkJobSummarySchema, list: true },
    },
  ];
  yield* webhookOperations();
  yield* auditOperations();
  yield* calendarOperations();
  yield* notificationOperations();
  yield ['GET /api/v2/about', aboutOperation];
}

export const operations: ReadonlyMap<string, OperationSpec> = new Map(describedOperations());
