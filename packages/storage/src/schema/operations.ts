/** What the server keeps to run: saved reports, the audit log, shared rate-limit windows, calendars and email. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

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
