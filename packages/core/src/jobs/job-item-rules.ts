/** How a failed bulk-job item is reported on the items route: pure, unit-tested beside it. */
import type { JobItemOutcome } from '../ports/job-store.ts';
import type { LecternError } from '../shared/errors.ts';
import { ItemFailure } from './job.ts';

/**
 * A message a person can act on per row: a validation failure names its first field and what is
 * wrong with it, instead of the generic "The request body failed validation."
 */
export function itemErrorMessage(error: LecternError): string {
  const [field, messages] = Object.entries(error.fieldErrors ?? {})[0] ?? [];
  if (field !== undefined && messages?.[0] !== undefined) return `${field}: ${messages[0]}`;
  return error.nonFieldErrors?.[0] ?? error.message;
}

export function failedOutcome(error: LecternError): JobItemOutcome {
  return {
    status: 'failed',
    publicId: error instanceof ItemFailure ? error.publicId : null,
    errorCode: error.code,
    errorMessage: itemErrorMessage(error),
  };
}
