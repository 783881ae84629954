import { LecternError, type ErrorCode } from '../shared/errors.ts';

/** The `scimType` values RFC 7644 §3.12 names, for the errors Lectern answers with one. */
export type ScimType = 'invalidFilter' | 'uniqueness' | 'invalidValue' | 'invalidPath' | 'noTarget' | 'invalidSyntax' | 'mutability';

/** A refusal the SCIM edge renders with its `scimType`; its code gives the status as any other error's does. */
export class ScimError extends LecternError {
  constructor(
    code: ErrorCode,
    readonly scimType: ScimType,
    message: string,
  ) {
    super(code, message);
    this.name = 'ScimError';
  }
}

export const invalidFilter = (message: string) => new ScimError('bad_request', 'invalidFilter', message);
export const invalidValue = (message: string) => new ScimError('bad_request', 'invalidValue', message);
export const invalidSyntax = (message: string) => new ScimError('bad_request', 'invalidSyntax', message);
