/**
 * The one error type of the RQL engine. Parsing and validation both throw it, so the saved-report
 * service can turn any failure into a single 422 on `expression` that points at the offending character.
 */
export class RqlError extends Error {
  /** 0-based offset into the expression (a JavaScript string index). */
  readonly position: number;
  /** What is wrong, without the position (e.g. "Expected a value after '='"). */
  readonly reason: string;
  /** Optional advice on how to fix it, kept apart so the position can sit right after the reason. */
  readonly hint: string | undefined;

  constructor(position: number, reason: string, hint?: string) {
    super(`${reason} at position ${position}${hint ? `. ${hint}` : ''}`);
    this.name = 'RqlError';
    this.position = position;
    this.reason = reason;
    this.hint = hint;
  }
}

export const isRqlError = (value: unknown): value is RqlError => value instanceof RqlError;
