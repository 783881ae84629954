/**
 * The field-level `changes` of an audit entry: what an update did to a resource's representation,
 * as `{field: {from, to}}`. Pure, so the rules (what is compared, what is never written) are
 * tested on their own (audit-diff.test.ts).
 */

export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** What a redacted field's `from` and `to` read: the entry says it changed, never what it holds. */
export const REDACTED = '[redacted]';

/**
 * Fields whose values must never reach the log (token values and hashes, webhook signing secrets):
 * an entry is readable by every admin token holding `audit:read` and kept for a year by default.
 */
const redactedFields: ReadonlySet<string> = new Set(['secret', 'token', 'token_hash', 'signing_secret', 'password']);

/** Bookkeeping every write stamps; a change of it alone is no change. */
const ignoredFields: ReadonlySet<string> = new Set(['modified', 'last_used_at']);

const same = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
};

/**
 * The top-level fields that differ between two representations of one resource; null when none
 * does. A field present on one side only counts as changed (from or to `null`).
 */
export function fieldChanges(before: object, after: object): FieldChanges | null {
  const from = before as Record<string, unknown>;
  const to = after as Record<string, unknown>;
  let changes: FieldChanges | null = null;
  const visit = (field: string) => {
    if (ignoredFields.has(field) || (changes !== null && field in changes)) return;
    const a = from[field] ?? null;
    const b = to[field] ?? null;
    if (same(a, b)) return;
    changes ??= {};
    changes[field] = redactedFields.has(field) ? { from: REDACTED, to: REDACTED } : { from: a, to: b };
  };
  for (const field in from) visit(field);
  for (const field in to) if (!(field in from)) visit(field);
  return changes;
}

/** A change to a secret field alone, recorded without its values (a rotated signing secret). */
export const redactedChange = (field: string): FieldChanges => ({ [field]: { from: REDACTED, to: REDACTED } });
