/**
 * The one place domain errors become HTTP: a status per code, the error envelope, and the status
 * of a synchronous batch whose items may fail.
 */
import { isLecternError, type ErrorCode, type SyncBatchResult } from '@lectern/core';
import { ok, type Reply } from './reply.ts';

export const errorStatus = {
  bad_request: 400,
  unauthenticated: 401,
  invalid_token: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  duplicate: 409,
  dropped: 409,
  already_completed: 409,
  not_outstanding: 409,
  not_completed: 409,
  not_exempted: 409,
  enrollment_managed: 409,
  archived: 409,
  checked_in: 409,
  not_checked_in: 409,
  waitlisted: 409,
  full: 409,
  waitlist_full: 409,
  method_conflict: 409,
  referenced_by_track: 409,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  validation_error: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export interface ErrorLogger {
  error(details: object, message?: string): void;
}

interface ErrorDetails {
  field_errors?: Record<string, string[]>;
  non_field_errors?: string[];
}

/**
 * The error envelope. A `validation_error` always carries both `field_errors` and
 * `non_field_errors`, empty when there are none, so clients can read them without checking.
 */
export function errorBody(code: ErrorCode, message: string, requestId: string, details: ErrorDetails = {}) {
  const filled = code === 'validation_error' ? { field_errors: {}, non_field_errors: [], ...details } : details;
  return { error: { code, message, request_id: requestId, ...filled } };
}

/**
 * The database could not do the work now but may in a moment, so the client may safely retry:
 * another process held a lock longer than the wait allows (SQLite's SQLITE_BUSY after busy_timeout,
 * PostgreSQL's lock_not_available after lock_timeout), or concurrent transactions kept conflicting
 * past the retries (serialization_failure, deadlock_detected).
 */
function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY') || code === '55P03' || code === '40001' || code === '40P01';
}

/** Renders any thrown value; unknown errors are logged and hidden behind a generic 500. */
export function errorReply(error: unknown, requestId: string, logger?: ErrorLogger): Reply {
  if (isLecternError(error)) {
    return {
      status: errorStatus[error.code],
      headers: error.headers ?? {},
      body: errorBody(error.code, error.message, requestId, {
        ...(error.fieldErrors ? { field_errors: error.fieldErrors } : {}),
        ...(error.nonFieldErrors ? { non_field_errors: error.nonFieldErrors } : {}),
      }),
    };
  }
  if (isDatabaseBusy(error)) {
    return {
      status: 503,
      headers: { 'Retry-After': '1' },
      body: errorBody('service_unavailable', 'The database is busy; retry shortly.', requestId),
    };
  }
  logger?.error({ request_id: requestId, err: error }, 'unhandled error');
  return { status: 500, body: errorBody('internal_error', 'An unexpected error occurred.', requestId) };
}

/**
 * A synchronous batch: 200 when every item succeeded, 207 when some did, 422 when none did. The
 * 422 keeps the batch shape and adds the usual `error` member, so both contracts hold (docs/content.md).
 */
export function batchReply(result: SyncBatchResult, requestId: string): Reply {
  const { succeeded_count: succeeded, failed_count: failed, total } = result.meta;
  if (failed === 0) return ok(result);
  if (succeeded > 0) return { status: 207, body: result };
  const message = `None of the ${total} item${total === 1 ? '' : 's'} succeeded; see data.failed for each item's error.`;
  return { status: 422, body: { ...errorBody('validation_error', message, requestId), ...result } };
}
