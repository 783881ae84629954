/**
 * The public API of @lectern/core, for applications that embed Lectern: createLectern and its
 * services, the resources' schemas and types, errors, the clock and id sources, list queries and
 * webhook verification. Storage adapters import their ports from `@lectern/core/ports`
 * (README.md, "Embedding the core"). Everything else is internal and may change without notice.
 */
export { MAX_BULK_ASSIGNMENTS } from './assignments/assignment-service.ts';
export {
  type Assignment,
  assignmentListSpec,
  type AssignmentRecord,
  type AssignmentRouteAction,
  assignmentRouteActions,
  assignmentSchema,
  assignmentView,
  createAssignmentInput,
  type CreateAssignmentInput,
  dropInput,
  feedbackInput,
  lastModifiedOf,
  lifecycleOf,
  MAX_DROP_REASON,
  MAX_FEEDBACK_TEXT,
  progressInput,
  type StoredAssignmentView,
  updateAssignmentInput,
} from './assignments/assignment.ts';
export { type AuditAction, auditActions, auditResourceTypeNames } from './audit/audit-actions.ts';
export { type FieldChanges, fieldChanges, REDACTED } from './audit/audit-diff.ts';
export { type AuditEntry, auditEntrySchema, type AuditQuery, parseAuditQuery } from './audit/audit-entry.ts';
export { AuditRecorder } from './audit/audit-recorder.ts';
export { AuditService } from './audit/audit-service.ts';
export { type Actor, actorUserId, authorize, isAdmin, isLearner, type RequestContext, systemActor } from './auth/actor.ts';
export {
  type ApiToken,
  type ApiTokenRecord,
  apiTokenSchema,
  createTokenInput,
  type CreateTokenInput,
  type IssuedApiToken,
  tokenListSpec,
} from './auth/api-token.ts';
export { meSchema } from './auth/me.ts';
export { grantedScopes, type Role, roleGrants, roles, roleSchema, type Scope, scopes, scopeSchema } from './auth/scopes.ts';
export { TokenService } from './auth/token-service.ts';
export {
  type IssuedSignInLink,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_TOKEN_HOURS,
  SIGN_IN_TOKEN_NAME,
  type SignInExchange,
  signInExchangeInput,
  signInExchangeSchema,
} from './auth/sign-in-link.ts';
export { SignInLinkService } from './auth/sign-in-link-service.ts';
export {
  OIDC_REQUEST_MINUTES,
  oidcSignInErrors,
  signInOptionsSchema,
  type OidcIdentity,
  type OidcSignInError,
  type OidcSignInOutcome,
  type PendingOidcRequest,
  type SignInOptions,
} from './auth/oidc-sign-in.ts';
export { OIDC_CALLBACK_PATH, OIDC_START_PATH, OidcSignInService } from './auth/oidc-sign-in-service.ts';
export { ScimError, type ScimType } from './scim/scim-error.ts';
export { ScimGroups } from './scim/scim-groups.ts';
export { searchParams as scimSearchParams } from './scim/scim-list.ts';
export { ScimUsers } from './scim/scim-users.ts';
export {
  listResponse as scimListResponse,
  resourceTypes as scimResourceTypes,
  schemas as scimSchemas,
  serviceProviderConfig as scimServiceProviderConfig,
  SCIM_ERROR,
} from './scim/scim-schemas.ts';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE, type LecternConfig, type LecternConfigInput, lecternConfigSchema } from './config.ts';
export {
  type Channel,
  channelListSpec,
  type ChannelRecord,
  channelSchema,
  createChannelInput,
  updateChannelInput,
} from './content/channel.ts';
export {
  containerTypes,
  type ContentExtras,
  contentExtrasSchema,
  contentListSpec,
  type ContentMediaStatus,
  type ContentRecord,
  type ContentRef,
  contentRefSchema,
  type ContentSummary,
  contentSummarySchema,
  contentTypeSchema,
  type ContentTypeView,
  contentTypeViewSchemas,
  type ContentWrite,
  createContentInputs,
  type CreateContentInput,
  isContainerType,
  MAX_ACCESS_GROUPS,
  MAX_CONTAINER_ITEMS,
  MAX_DURATION_MINUTES,
  MAX_TAGS_PER_WRITE,
  mediaStatuses,
  replaceTagsInput,
  summaryOf,
  tagNamesField,
  type TagOperation,
  tagsInput,
  typedContentListSpec,
  typeSpecificFields,
  typeViewOf,
  updateContentInputs,
  type UpdateContentInput,
  updateContentItemInput,
} from './content/content-item.ts';
export {
  type CollectionContentType,
  type ContentCollection,
  type ContentType,
  contentTypeCollections,
  contentTypeOfCollection,
  contentTypes,
} from './content/content-types.ts';
export { mediaStatusReportInput } from './content/media-processing.ts';
export { MAX_BULK_ENROLLMENTS } from './enrollments/enrollment-service.ts';
export {
  createEnrollmentInput,
  type CreateEnrollmentInput,
  type Enrollment,
  type EnrollmentAction,
  enrollmentActions,
  enrollmentListSpec,
  type EnrollmentRecord,
  enrollmentSchema,
} from './enrollments/enrollment.ts';
export { EventService } from './events/event-service.ts';
export {
  bulkEventItemInput,
  bulkSeriesItemInput,
  createEventInput,
  type CreateEventInput,
  createSeriesInput,
  type EnrollmentCounts,
  enrollmentCountsSchema,
  type EventKind,
  eventKinds,
  eventListSpec,
  type EventRecord,
  type EventSettings,
  eventSettingsSchema,
  type EventView,
  eventViewOf,
  eventViewSchema,
  type EventWrite,
  limitFields,
  MAX_ENROLLMENT_LIMIT,
  noEnrollments,
  seriesListSpec,
  type SeriesView,
  seriesViewOf,
  seriesViewSchema,
  type SeriesWrite,
  updateEventInput,
  updateSeriesInput,
  viewOf,
} from './events/event.ts';
export { facilitatorsInput, facilitatorsSchema } from './events/facilitators.ts';
export { createLocationInput, type Location, locationListSpec, locationSchema, updateLocationInput } from './events/location.ts';
export { EventSeriesService } from './events/series-service.ts';
export {
  createGroupInput,
  type Group,
  groupListSpec,
  type GroupRecord,
  type GroupRelation,
  groupRelations,
  groupSchema,
  MAX_MEMBER_IDS,
  membershipInput,
  type MembershipOperation,
  NATIVE_SOURCE,
  replaceMembershipInput,
  updateGroupInput,
} from './groups/group.ts';
export { type InsightKind, insightFilterSpec, insightKinds } from './insights/insight-service.ts';
export { type WeeklyCompletions, weeklyCompletionsSchema } from './insights/weekly-completions.ts';
export {
  completionInsightSchema,
  feedbackInsightSchema,
  overdueInsightSchema,
  passFailInsightSchema,
  ratingsInsightSchema,
} from './insights/insight-bodies.ts';
export {
  type AppliedItem,
  bulkEnvelope,
  isTerminal,
  ItemFailure,
  type Job,
  type JobItem,
  jobItemListSpec,
  jobItemSchema,
  jobItemStatuses,
  type JobRecord,
  jobSchema,
  type JobStatus,
  jobStatuses,
  storeActor,
  type StoredActor,
  storedActorSchema,
} from './jobs/job.ts';
export { BulkJobListService } from './jobs/bulk-job-list.ts';
export type { BulkJobs } from './jobs/bulk-jobs.ts';
export { type BulkJobKind, bulkJobKinds, bulkJobListSpec, type BulkJobSummary, bulkJobSummarySchema } from './jobs/bulk-job-summary.ts';
export { CsvFormatError, type CsvRecord, MAX_RECORD_BYTES, maxFieldsFor, readCsvRecords } from './imports/csv-records.ts';
export { type ColumnMap, HeaderError, mapColumns } from './imports/import-columns.ts';
export { IMPORT_KINDS, type ImportKind, type ImportKindName, importKinds, isImportKind } from './imports/import-kinds.ts';
export { IMPORT_CHUNK_ROWS, type ImportRequest, ImportService, REPORT_COLUMNS } from './imports/import-service.ts';
export {
  type Import,
  importListSpec,
  type ImportRecord,
  importSchema,
  type ImportStatus,
  importStatuses,
  type ReportRow,
  type RowStatus,
  rowStatuses,
} from './imports/import.ts';
export { checkRow, type RowCheck, rowIdentity, unreadRowFailure, type UserReference } from './imports/row-check.ts';
export { type BootstrapResult, createLectern, Lectern, type LecternOptions, type StartOptions } from './lectern.ts';
export { type Storage, type Stores } from './ports/storage.ts';
export { catalogueOf, type CatalogueOptions, reportResourceDefinitions } from './reports/report-catalogues.ts';
export { type RqlOrder, type RqlParsed, type RqlValidated } from './reports/rql/rql-ast.ts';
export { isRqlError, RqlError } from './reports/rql/rql-error.ts';
export { compareByRql, matchesRql, sortByRql } from './reports/rql/rql-evaluate.ts';
export { compileRql, type RqlCatalogue, type RqlField, validateRql } from './reports/rql/rql-fields.ts';
export { parseRql } from './reports/rql/rql-parser.ts';
export {
  createSavedReportInput,
  MAX_EXPRESSION_LENGTH,
  type ReportResource,
  reportResources,
  reportResourceSchema,
  type SavedReport,
  savedReportListSpec,
  type SavedReportRecord,
  savedReportSchema,
  updateSavedReportInput,
} from './reports/saved-report.ts';
export { type Clock, nowIso, systemClock, todayUtc, toIso } from './shared/clock.ts';
export { type CsvCell, csvLine, csvLines, csvStream } from './shared/csv-writer.ts';
export {
  badRequest,
  conflict,
  type ErrorCode,
  errorCodes,
  fieldError,
  type FieldErrors,
  forbidden,
  isLecternError,
  LecternError,
  type LecternErrorOptions,
  notFound,
  validationError,
} from './shared/errors.ts';
export { etagOf, etagOfJson, ifNoneMatchHits } from './shared/etag.ts';
export { type IdGenerator, isUuid, MAX_INTEGER_ID, randomBase32, randomIds } from './shared/ids.ts';
export {
  type CursorListResult,
  DEFAULT_PAGE_SIZE,
  type FilterDef,
  type FilterValue,
  type ListQuery,
  type ListResult,
  type ListSpec,
  MAX_PAGE_SIZE,
  type OrderTerm,
  type Page,
  parseListQuery,
  parsePageSize,
  queryParam,
  type QueryParams,
  type RangeKind,
  readOrdering,
  readParam,
  toListResult,
} from './shared/list-query.ts';
export { inListBatch, readForExport, type HeldListRead, type ListBatch } from './shared/list-batch.ts';
export {
  type DescribedField,
  describeFields,
  type FieldKind,
  isReference,
  listed,
  listSpecOf,
  type ListSpecParts,
  type ListTraits,
  listTraitsOf,
  searchableFields,
  unwrapField,
} from './shared/listed-fields.ts';
export { emailField, publicIdField } from './shared/schema.ts';
export { type StoredRecord } from './shared/stored-record.ts';
export { apiSchemaNames } from './shared/api-schema-names.ts';
export { batchItemsField, syncBatchResultSchema, type SyncBatchResult } from './shared/sync-batch.ts';
export { whenSettled, type MaybePromise } from './shared/maybe-promise.ts';
export { parseDatetime } from './shared/time.ts';
export { parseInput } from './shared/validation.ts';
export { MAX_BULK_USERS } from './users/user-service.ts';
export { MAX_BULK_EVENT_UPDATES } from './events/event-like-service.ts';
export {
  bulkUserItem,
  createUserInput,
  type CreateUserInput,
  updateUserInput,
  type UpdateUserInput,
  type User,
  userListSpec,
  type UserRecord,
  userRef,
  userSchema,
} from './users/user.ts';
export { type DeliveryOutcome, type DeliveryOutcomeCounts, deliveryOutcomes, sharedOutcomeCounts } from './webhooks/delivery-counts.ts';
export { type EngineLogger } from './webhooks/delivery-engine.ts';
export { allEventTypes, eventCatalogSchema } from './webhooks/event-catalog.ts';
export {
  ATTEMPT_ID_PREFIX,
  type AttemptQuery,
  type DeliveryAttempt,
  deliveryAttemptSchema,
  type DeliveryState,
  parseAttemptQuery,
  PING_EVENT_TYPE,
  recoverDeliveriesInput,
  RESPONSE_BODY_LIMIT_BYTES,
} from './webhooks/webhook-delivery.ts';
export { cancelOwedDeliveries } from './webhooks/owed-deliveries.ts';
export { API_VERSION, type WebhookEvent } from './webhooks/webhook-event.ts';
export { EventRecorder } from './webhooks/event-recorder.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  type HeaderSource,
  type SignInput,
  signWebhook,
  type VerifyOptions,
  verifyWebhook,
  verifyWebhookSignature,
  WEBHOOK_SECRET_PREFIX,
  webhookHeaders,
  WebhookPayloadError,
  type WebhookSignatureHeaders,
  WebhookVerificationError,
} from './webhooks/webhook-signature.ts';
export {
  createWebhookInput,
  type CreateWebhookInput,
  isWebhookId,
  updateWebhookInput,
  type UpdateWebhookInput,
  WEBHOOK_ID_PREFIX,
  type WebhookEndpointRecord,
  webhookListSpec,
  type WebhookSubscription,
  webhookSubscriptionSchema,
  type WebhookSubscriptionWithSecret,
  webhookSubscriptionWithSecretSchema,
  withSecret,
} from './webhooks/webhook-subscription.ts';
export { CalendarService, calendarFeedSchema, type CalendarFeed } from './calendars/calendar-service.ts';
export { outstandingStates } from './assignments/assignment-machine.ts';
export { DEFAULT_MAIL_RETRY_SCHEDULE } from './config.ts';
export {
  notificationKinds,
  notificationListSpec,
  notificationSchema,
  notificationStatuses,
  type Notification,
  type NotificationKind,
  type Recipient,
} from './notifications/notification.ts';
export { mySettingsSchema, NotificationService, updateMeInput, type MySettings } from './notifications/notification-service.ts';
export { classifySmtpError } from './notifications/mail-sender.ts';
export { outcomeOf } from './notifications/mail-worker.ts';
// one run of the sweep every server's mail worker runs, for an embedder scheduling its own (and the mail benchmark)
export { sweepReminders, type ReminderSweepDeps } from './notifications/reminder-sweep.ts';
export { AboutService, aboutSchema, type About } from './about/about-service.ts';
export { LECTERN_VERSION } from './version.ts';
