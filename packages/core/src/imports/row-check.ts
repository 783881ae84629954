/**
 * The rules one data row must pass before anything is written, with core's own schemas. Empty
 * cells mean "not given" (an optional field is left out; a required one is missing).
 */
import type { z } from 'zod';
import { isLecternError } from '../shared/errors.ts';
import { emailField, publicIdField } from '../shared/schema.ts';
import { parseInput } from '../shared/validation.ts';
import { FIELD_MARGIN, MAX_RECORD_BYTES } from './csv-records.ts';
import type { ColumnMap } from './import-columns.ts';
import type { ImportKind } from './import-kinds.ts';

/** How a row names its user when the kind refers to one: resolved to a public_id before writing. */
export type UserReference = { email: string } | { id: string };

export type RowCheck =
  { ok: true; item: Record<string, unknown>; user: UserReference | null } | { ok: false; code: string; message: string };

/** How a row longer or wider than the record limits fails: it was never read (csv-records.ts). */
const TOO_LONG_ROW = {
  code: 'row_too_long',
  message: `The row is longer than the limit of ${MAX_RECORD_BYTES} bytes, or has more than ${FIELD_MARGIN} fields beyond the kind's columns; it was not read.`,
} as const;

/**
 * Why a row the CSV reader could not give cells for fails: longer than the record limit, or with
 * fields that are not UTF-8 (named by `header`); undefined for a row read whole. The server's
 * import and the CLI's offline dry run fail such rows alike.
 */
export function unreadRowFailure(
  row: { tooLong?: boolean; badFields?: readonly number[] | null },
  header: readonly string[],
): { code: string; message: string } | undefined {
  if (row.tooLong) return TOO_LONG_ROW;
  if (!row.badFields) return undefined;
  const names = row.badFields.map((index) => header[index]?.trim() || `column ${index + 1}`);
  return { code: 'validation_error', message: `${names.join(', ')}: not valid UTF-8` };
}

const REFERENCE_COLUMNS = new Set(['user_email', 'user_id']);
// built once: a schema costs more to build than to run, and every row runs these
const userEmailSchema = emailField();
const userIdSchema = publicIdField();

export function checkRow(kind: ImportKind, columns: ColumnMap, record: readonly string[]): RowCheck {
  if (record.length !== columns.header.length) {
    return { ok: false, code: 'column_count', message: `The row has ${record.length} fields; the header has ${columns.header.length}.` };
  }
  const cell = (field: string) => {
    const index = columns.indexOf.get(field);
    return index === undefined ? '' : record[index]!.trim();
  };
  const body: Record<string, unknown> = {};
  for (const field of columns.indexOf.keys()) {
    if (REFERENCE_COLUMNS.has(field)) continue;
    const text = cell(field);
    if (text !== '') body[field] = kind.cellValue ? kind.cellValue(field, text) : text;
  }

  const problems: string[] = [];
  const parsed = validate(kind.rowSchema, body);
  if (!parsed.ok) problems.push(...parsed.problems);

  let user: UserReference | null = null;
  if (kind.userReference) {
    const email = cell('user_email');
    const id = cell('user_id');
    if (email !== '' && id !== '') problems.push('user_email, user_id: Give one of them, not both.');
    else if (email === '' && id === '') problems.push('user_email or user_id: This field is required.');
    else if (email !== '') {
      const result = validate(userEmailSchema, email, 'user_email');
      if (result.ok) user = { email: String(result.data).toLowerCase() };
      else problems.push(...result.problems);
    } else {
      const result = validate(userIdSchema, id, 'user_id');
      if (result.ok) user = { id: String(result.data).toLowerCase() };
      else problems.push(...result.problems);
    }
  }

  if (problems.length > 0) return { ok: false, code: 'validation_error', message: problems.join(' ') };
  return { ok: true, item: parsed.ok ? (parsed.data as Record<string, unknown>) : {}, user };
}

/** The key two rows about the same resource share (`duplicate_row`), from the item with its user_id (no NUL: PostgreSQL's text cannot hold one). */
export const rowIdentity = (kind: ImportKind, item: Record<string, unknown>): string =>
  kind.identity.map((field) => String(item[field]).toLowerCase()).join('\u001f');

type Validated = { ok: true; data: unknown } | { ok: false; problems: string[] };

/**
 * core's parseInput, its 422 turned into `field: message` phrases (the API's own words); `field`
 * names a lone value's problems.
 */
function validate(schema: z.ZodType, value: unknown, field?: string): Validated {
  try {
    return { ok: true, data: parseInput(schema, value) };
  } catch (error) {
    if (!isLecternError(error)) throw error;
    return {
      ok: false,
      problems: [
        ...Object.entries(error.fieldErrors ?? {}).map(([name, messages]) => `${name}: ${messages.join(' ')}`),
        ...(error.nonFieldErrors ?? []).map((message) => (field ? `${field}: ${message}` : message)),
      ],
    };
  }
}
