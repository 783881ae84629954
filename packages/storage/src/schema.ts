/**
 * Table types for kysely. Booleans are stored as 0/1 integers and timestamps as UTC ISO-8601
 * strings with milliseconds, so the same queries run on SQLite and PostgreSQL and compare as strings.
 */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  email_lower: string;
  /** foldCase(name), written with the name: what `search` compares and indexes */
  name_folded: string | null;
  name: string;
  role: string;
  employee_id: string | null;
  is_active: number;
  manager_id: number | null;
  date_joined: string;
  modified: string;
  /** 1 unless the user turned email off (migration 0020) */
  email_notifications: Generated<number>;
  /** SCIM: the identity provider's id, and when it deleted the user (migration 0023) */
  external_id: Generated<string | null>;
  scim_deleted_at: Generated<string | null>;
}

export interface GroupsTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  source: string | null;
  created: string;
  modified: string;
  deleted_at: string | null;
  /** SCIM: the identity provider's id (migration 0023) */
  external_id: Generated<string | null>;
}

export interface GroupUsersTable {
  group_id: number;
  user_id: number;
  /** 'member' | 'owner' */
  relation: string;
  created: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  name: string;
  token_hash: string;
  token_prefix: string;
  /** JSON array of scope names */
  scopes: string;
  expires_at: string | null;
  created: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** One-time console sign-in links (migration 0017). */
export interface SignInLinksTable {
  id: Generated<number>;
  code_hash: string;
  user_id: number;
  created: string;
  expires_at: string;
  used_at: string | null;
}

/** Console single sign-on requests waiting for the provider (migration 0021). */
export interface OidcRequestsTable {
  id: Generated<number>;
  state_hash: string;
  nonce: string;
  code_verifier: string;
  created: string;
  expires_at: string;
}

export interface OutboxEventsTable {
  sequence: Generated<number>;
  event_id: string;
  type: string;
  created_at: string;
  /** the full JSON envelope as delivered */
  payload: string;
}

export interface ChannelsTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  created: string;
  modified: string;
  deleted_at: string | null;
}

export interface ContentItemsTable {
  id: Generated<number>;
  public_id: string;
  content_type: string;
  name: string;
  /** foldCase(name), written with the name: what `search` compares and indexes */
  name_folded: string | null;
  description: string;
  is_archived: Generated<number>;
  is_hidden: number;
  is_completable: number;
  is_self_assignable: number;
  duration_minutes: number;
  channel_id: number | null;
  /** 1 when the item has rows in content_groups, kept by triggers on that table (migration 0014) */
  has_access_groups: Generated<number>;
  total_assignments: Generated<number>;
  completed_assignments_count: Generated<number>;
  rating_sum: Generated<number>;
  rating_count: Generated<number>;
  url: string | null;
  media_asset_id: string | null;
  /** 'none' | 'processing' | 'ready' | 'errored' */
  media_status: string;
  media_duration: number | null;
  starts_on: string | null;
  ends_on: string | null;
  created: string;
  modified: string;
  deleted_at: string | null;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
}

export interface ContentTagsTable {
  content_id: number;
  tag_id: number;
}

export interface ContentGroupsTable {
  content_id: number;
  group_id: number;
}

/** The ordered items of a track, scheduled track or collection. */
export interface ContentTrackItemsTable {
  parent_id: number;
  position: number;
  item_id: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  /** `ep_…` */
  public_id: string;
  url: string;
  /** JSON array of concrete event types, as the API returns them */
  events: string;
  description: string;
  is_active: number;
  disabled_reason: string | null;
  secret: string;
  first_failure_at: string | null;
  /** the last outbox sequence when the subscription was made: it receives only later events */
  starts_after_sequence: number;
  created: string;
  modified: string;
  deleted_at: string | null;
}

export interface WebhookEndpointEventsTable {
  event_type: string;
  endpoint_id: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  /** 'pending' | 'succeeded' | 'failed' | 'cancelled' */
  state: string;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_until: string | null;
  /** the instance id of the process attempting it, with lease_until */
  lease_owner: string | null;
  /** 1 when the next attempt is a one-off a person asked for: its failure schedules nothing more */
  final_attempt: Generated<number>;
  created: string;
  modified: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  /** `att_…` */
  public_id: string;
  delivery_id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  /** 'succeeded' | 'failed' */
  status: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
  next_attempt_at: string | null;
  /** JSON object of the headers sent; null when nothing was sent (a refused target) */
  request_headers: string | null;
}

export interface WebhookDispatchStateTable {
  id: number;
  outbox_sequence: number;
}

export interface AssignmentsTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  content_id: number;
  /** the enrollment that owns this assignment, set by the enrollments area */
  enrollment_id: number | null;
  state: string;
  progress: number;
  /** restored by undo-complete (assignment-machine.ts) */
  progress_before_completion: number | null;
  score: number | null;
  is_success: number | null;
  due_date: string | null;
  expires_at: string | null;
  started_at: string | null;
  completed_datetime: string | null;
  dropped_at: string | null;
  exempted_at: string | null;
  feedback_rating: number | null;
  feedback_text: string | null;
  drop_reason: string | null;
  attempt: number;
  created: string;
  modified: string;
  deleted_at: string | null;
}

/**
 * Live assignments counted per content item and per combination of the facts the insights
 * group by; kept in the same transaction as every assignment write (assignment-repository.ts).
 * `rating` 0 means none; `success` 0 failed, 1 passed, 2 unknown; `reviewed` 1 when there is text.
 */
export interface AssignmentStatsTable {
  content_id: number;
  state: string;
  rating: number;
  success: number;
  reviewed: number;
  n: number;
}

/** assignment_stats per content type instead of per content item (migration 0013) */
/** Enrolled and waitlisted enrollments per event and method, kept per write (migration 0019). */
/** each user's live assignments, kept per write by the assignments area (migration 0024); no row is none */
export interface UserAssignmentCountsTable {
  user_id: number;
  n: number;
}

export interface EventSeatCountsTable {
  event_id: number;
  attendance_method: string;
  status: string;
  n: number;
}

export interface AssignmentTotalsTable {
  content_type: string;
  state: string;
  rating: number;
  success: number;
  reviewed: number;
  n: number;
}

/** outstanding assignments with a due date, per content type, state and day (migration 0013) */
export interface AssignmentDueTotalsTable {
  content_type: string;
  state: string;
  due_date: string;
  n: number;
}

export interface JobsTable {
  id: Generated<number>;
  public_id: string;
  kind: string;
  status: string;
  /** JSON of the submitting actor (jobs/job.ts StoredActor) */
  actor: string;
  request_id: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  created_at: string;
  completed_at: string | null;
  error_message: string | null;
  /** the process running the job (its instance id) and until when, absent when none is */
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** the submitting user's internal id; null for the command line */
  created_by_id: number | null;
}

export interface JobItemsTable {
  job_id: number;
  position: number;
  /** the item as submitted, JSON */
  payload: string;
  /** null until processed; then 'succeeded' | 'failed' */
  outcome: string | null;
  error_code: string | null;
  /** the resource the item created, updated or found (a duplicate's existing user too) */
  public_id: string | null;
  /** 1 created, 0 found or updated, null when failed or not yet processed */
  created: number | null;
  error_message: string | null;
}

export interface ImportsTable {
  id: Generated<number>;
  public_id: string;
  kind: string;
  /** `receiving` while the file streams in, then the import's status */
  status: string;
  dry_run: number;
  update_existing: number;
  filename: string | null;
  /** JSON array: the header as written */
  header: string;
  /** JSON of the submitting actor (jobs/job.ts StoredActor) */
  actor: string;
  created_by_id: number | null;
  request_id: string;
  job_id: number | null;
  total_rows: number | null;
  /** the last row whose outcome is recorded */
  done_through: Generated<number>;
  processed: Generated<number>;
  created: Generated<number>;
  existing: Generated<number>;
  updated: Generated<number>;
  valid: Generated<number>;
  failed: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface ImportRowsTable {
  import_id: number;
  /** 1-based data row */
  row: number;
  /** JSON array of the cells; a cell that was not UTF-8 is '' */
  cells: string;
  /** JSON array of the indexes of the cells that were not UTF-8, or null */
  bad_fields: string | null;
  /** 1 when the row was longer than the record limit and was not read (no cells), else null */
  too_long: number | null;
}

export interface ImportResultsTable {
  import_id: number;
  row: number;
  status: string;
  public_id: string | null;
  error_code: string | null;
  error_message: string | null;
  /** what makes two rows about the same resource (duplicate_row), once known */
  identity: string | null;
}

export interface LocationsTable {
  id: Generated<number>;
  name: string;
  /** IANA zone name as the client sent it */
  timezone: string;
  created: string;
}

/** What an event or event series keeps beside its content row (same id). */
export interface EventDetailsTable {
  content_id: number;
  series_id: number | null;
  location_id: number | null;
  is_local: number;
  is_online: number;
  enrollment_limit: number;
  wait_list_limit: number;
  online_enrollment_limit: number;
  online_wait_list_limit: number;
  body_markdown: string | null;
  external_link: string | null;
  external_link_description: string | null;
  cover_url: string | null;
  /** span over the timeslots: wall clocks in the location's zone, and instants; null for a series */
  starts_at: string | null;
  ends_at: string | null;
  starts_at_utc: string | null;
  ends_at_utc: string | null;
  /** the iCalendar SEQUENCE, raised by every change of the event (migration 0020) */
  calendar_sequence: Generated<number>;
}

export interface EventTimeslotsTable {
  id: Generated<number>;
  event_id: number;
  starts_at: string;
  ends_at: string;
  starts_at_utc: string;
  ends_at_utc: string;
  duration_minutes: number;
  rooms_info: string;
  watch_link: string | null;
}

export interface EventFacilitatorsTable {
  content_id: number;
  /** 'organizer' | 'co_organizer' | 'presenter' */
  role: string;
  position: number;
  user_id: number;
}

export interface EnrollmentsTable {
  id: Generated<number>;
  public_id: string;
  event_id: number;
  user_id: number;
  assignment_id: number | null;
  /** 'in_person' | 'online' */
  attendance_method: string;
  /** 'enrolled' | 'waitlisted' | 'dropped' */
  status: string;
  checkin_datetime: string | null;
  created: string;
  modified: string;
}

export interface SavedReportsTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  /** one of core's reportResources */
  resource: string;
  expression: string;
  ordering: string | null;
  created_by: number | null;
  created: string;
  modified: string;
  deleted_at: string | null;
}

/** one row per change (migration 0016); read by `GET /audit-log/` */
export interface AuditLogTable {
  /** numbered by audit_log_recent, kept when a row moves to audit_log */
  id: Generated<number>;
  /** `aud_…` */
  public_id: string;
  occurred_at: string;
  action: string;
  /** null when the command line (the system actor) made the change */
  actor_user_id: number | null;
  token_id: number | null;
  request_id: string | null;
  resource_type: string;
  /** the resource's public id */
  resource_id: string;
  /** JSON `{field: {from, to}}` for updates */
  changes: string | null;
}

/** requests per rate-limit key and window, when servers share the database */
export interface RateLimitWindowsTable {
  key: string;
  /** epoch milliseconds */
  window_start: number;
  hits: number;
}

/** Calendars and email (migration 0020). */
export interface CalendarFeedsTable {
  user_id: number;
  key_hash: string;
  created: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  kind: string;
  user_id: number;
  subject: string;
  payload: string;
  /** 'pending' | 'sent' | 'failed' | 'skipped' */
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  next_attempt_at: string | null;
  lease_owner: string | null;
  unsubscribe_key: string;
  created_at: string;
  sent_at: string | null;
}

export interface AssignmentRemindersTable {
  assignment_id: number;
  kind: string;
  created: string;
}

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
