/**
 * The API's enums the console offers as choices (filters, orders), read from the OpenAPI document
 * (schema-values.ts, generated with schema.d.ts) under names that say what they are.
 */
export {
  pathsApiV2AssignmentsGetParametersQueryContent_typeValues as assignmentContentTypes,
  pathsApiV2AssignmentsGetParametersQueryOrderingValues as assignmentOrderings,
  pathsApiV2AssignmentsGetParametersQueryStateValues as assignmentStates,
  pathsApiV2ApiTokensGetParametersQueryOrderingValues as tokenOrderings,
  pathsApiV2AuditLogGetParametersQueryActionValues as auditActions,
  pathsApiV2AuditLogGetParametersQueryResource_typeValues as auditResourceTypes,
  pathsApiV2BulkJobsGetParametersQueryKindValues as bulkJobKinds,
  pathsApiV2BulkJobsGetParametersQueryOrderingValues as bulkJobOrderings,
  pathsApiV2BulkJobsGetParametersQueryStatusValues as bulkJobStatuses,
  pathsApiV2ContentItemsGetParametersQueryContent_typeValues as contentTypes,
  pathsApiV2ContentItemsGetParametersQueryOrderingValues as contentOrderings,
  pathsApiV2EnrollmentsGetParametersQueryAttendance_methodValues as attendanceMethods,
  pathsApiV2EnrollmentsGetParametersQueryOrderingValues as enrollmentOrderings,
  pathsApiV2EnrollmentsGetParametersQueryStatusValues as enrollmentStatuses,
  pathsApiV2EventSeriesGetParametersQueryOrderingValues as seriesOrderings,
  pathsApiV2EventsGetParametersQueryOrderingValues as eventOrderings,
  pathsApiV2GroupsGetParametersQueryOrderingValues as groupOrderings,
  pathsApiV2ImportsPostParametersQueryKindValues as importKinds,
  pathsApiV2LocationsGetParametersQueryOrderingValues as locationOrderings,
  pathsApiV2NotificationsGetParametersQueryKindValues as notificationKinds,
  pathsApiV2NotificationsGetParametersQueryOrderingValues as notificationOrderings,
  pathsApiV2NotificationsGetParametersQueryStatusValues as notificationStatuses,
  pathsApiV2SavedReportsGetParametersQueryOrderingValues as reportOrderings,
  savedReportCreateResourceValues as savedReportResources,
  pathsApiV2UsersBulkIdItemsGetParametersQueryStatusValues as bulkItemStatuses,
  pathsApiV2UsersGetParametersQueryOrderingValues as userOrderings,
  pathsApiV2UsersGetParametersQueryRoleValues as userRoles,
  pathsPublic_apiV2WebhooksGetParametersQueryOrderingValues as webhookOrderings,
} from './schema-values.ts';
