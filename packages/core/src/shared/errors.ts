/**
 * Typed domain errors. Every failure the API can report is one of these codes;
 * the HTTP edge maps each code to a status in one table (packages/http/src/error-response.ts).
 */
export const errorCodes = [
  'bad_request',
  'unauthenticated',
  'invalid_token',
  'forbidden',
  'insufficient_scope',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'conflict',
  'duplicate',
  // state-specific 409s
  'dropped',
  'already_completed',
  'not_outstanding',
  'not_completed',
  'not_exempted',
  'enrollment_managed',
  'archived',
  'checked_in',
  'not_checked_in',
  'waitlisted',
  'full',
  'waitlist_full',
  'method_conflict',
  'referenced_by_track',
  'gone',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'expectation_failed',
  'validation_error',
  'rate_limited',
  'headers_too_large',
  'internal_error',
  'not_implemented',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export type FieldErrors = Record<string, string[]>;

export interface LecternErrorOptions {
  fieldErrors?: FieldErrors;
  nonFieldErrors?: string[];
  /** Extra response headers the edge should send (e.g. Allow, Retry-After). */
  headers?: Record<string, string>;
}

export class LecternError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors | undefined;
  readonly nonFieldErrors: string[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: LecternErrorOptions = {}) {
    super(message);
    this.name = 'LecternError';
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.nonFieldErrors = options.nonFieldErrors;
    this.headers = options.headers;
  }
}

export const isLecternError = (value: unknown): value is LecternError => value instanceof LecternError;

export const badRequest = (message: string) => new LecternError('bad_request', message);

export const notFound = (what = 'Resource') => new LecternError('not_found', `${what} not found.`);

export const forbidden = (message = 'You do not have permission to perform this action.') => new LecternError('forbidden', message);

export const conflict = (code: ErrorCode, message: string) => new LecternError(code, message);

export const validationError = (fieldErrors: FieldErrors, message = 'The request body failed validation.') =>
  new LecternError('validation_error', message, { fieldErrors });

/** A 422 naming one field, the most common validation failure raised by rules rather than schemas. */
export const fieldError = (field: string, message: string) => validationError({ [field]: [message] });
