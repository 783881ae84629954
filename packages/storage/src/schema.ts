/**
 * Table types for kysely. Booleans are stored as 0/1 integers and timestamps as UTC ISO-8601
 * strings with milliseconds, so the same queries run on SQLite and PostgreSQL and compare as strings.
 */
import type { UsersTable, GroupsTable, GroupUsersTable, ApiTokensTable, SignInLinksTable, OidcRequestsTable } from './schema/people.ts';
import type {
  ChannelsTable,
  ContentItemsTable,
  TagsTable,
  ContentTagsTable,
  ContentGroupsTable,
  ContentTrackItemsTable,
} from './schema/content.ts';
import type {
  OutboxEventsTable,
  WebhookEndpointsTable,
  WebhookEndpointEventsTable,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  WebhookDispatchStateTable,
} from './schema/webhooks.ts';
import type {
  AssignmentsTable,
  AssignmentStatsTable,
  AssignmentTotalsTable,
  AssignmentDueTotalsTable,
  AssignmentCreatedTotalsTable,
  UserAssignmentCountsTable,
} from './schema/assignments.ts';
import type { JobsTable, JobItemsTable, ImportsTable, ImportRowsTable, ImportResultsTable } from './schema/jobs.ts';
import type {
  LocationsTable,
  EventDetailsTable,
  EventTimeslotsTable,
  EventFacilitatorsTable,
  EnrollmentsTable,
  EventSeatCountsTable,
} from './schema/events.ts';
import type {
  SavedReportsTable,
  AuditLogTable,
  RateLimitWindowsTable,
  CalendarFeedsTable,
  NotificationsTable,
  AssignmentRemindersTable,
} from './schema/operations.ts';

export interface Database {
  users: UsersTable;
  groups: GroupsTable;
  group_users: GroupUsersTable;
  api_tokens: ApiTokensTable;
  sign_in_links: SignInLinksTable;
  oidc_requests: OidcRequestsTable;
  outbox_events: OutboxEventsTable;
  channels: ChannelsTable;
  content_items: ContentItemsTable;
  tags: TagsTable;
  content_tags: ContentTagsTable;
  content_groups: ContentGroupsTable;
  content_track_items: ContentTrackItemsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_endpoint_events: WebhookEndpointEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_dispatch_state: WebhookDispatchStateTable;
  assignments: AssignmentsTable;
  assignment_stats: AssignmentStatsTable;
  assignment_totals: AssignmentTotalsTable;
  event_seat_counts: EventSeatCountsTable;
  user_assignment_counts: UserAssignmentCountsTable;
  assignment_due_totals: AssignmentDueTotalsTable;
  assignment_created_totals: AssignmentCreatedTotalsTable;
  jobs: JobsTable;
  job_items: JobItemsTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  import_results: ImportResultsTable;
  locations: LocationsTable;
  event_details: EventDetailsTable;
  event_timeslots: EventTimeslotsTable;
  event_facilitators: EventFacilitatorsTable;
  enrollments: EnrollmentsTable;
  saved_reports: SavedReportsTable;
  rate_limit_windows: RateLimitWindowsTable;
  audit_log: AuditLogTable;
  /** entries not yet moved into audit_log by the maintenance pass (migration 0016) */
  audit_log_recent: AuditLogTable;
  calendar_feeds: CalendarFeedsTable;
  notifications: NotificationsTable;
  assignment_reminders: AssignmentRemindersTable;
}

/** The tables of a query by the aliases it gives them: `{ u: 'users', m: 'users' }`. */
export type Aliases = Readonly<Record<string, keyof Database>>;

/** Database as kysely sees a query that reads the tables of `A` under their aliases. */
export type Tables<A extends Aliases> = Database & { [K in keyof A]: Database[A[K]] };
