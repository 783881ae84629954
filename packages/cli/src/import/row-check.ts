/**
 * Local validation of one data row with core's own schemas, before anything is sent. Empty cells
 * mean "not given" (an optional field is left out; a required one is missing).
 */
import { emailField, issuesToErrors, publicIdField } from '@lectern/core';
import type { ColumnMap } from './columns.ts';
import type { ImportKind } from './import-kinds.ts';

/** How a row names its user when the kind refers to one: resolved to a public_id before sending. */
export type UserReference = { email: string } | { id: string };

export type RowCheck =
  | { ok: true; item: Record<string, unknown>; user: UserReference | null }
  | { ok: false; code: string; message: string };

const REFERENCE_COLUMNS = new Set(['user_email', 'user_id']);

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
  const parsed = kind.rowSchema.safeParse(body);
  if (!parsed.success) problems.push(...describe(parsed.error.issues));

  let user: UserReference | null = null;
  if (kind.userReference) {
    const email = cell('user_email');
    const id = cell('user_id');
    if (email !== '' && id !== '') problems.push('user_email, user_id: Give one of them, not both.');
    else if (email === '' && id === '') problems.push('user_email or user_id: This field is required.');
    else if (email !== '') {
      const result = emailField().safeParse(email);
      if (result.success) user = { email: result.data.toLowerCase() };
      else problems.push(...describe(result.error.issues, 'user_email'));
    } else {
      const result = publicIdField().safeParse(id);
      if (result.success) user = { id: result.data.toLowerCase() };
      else problems.push(...describe(result.error.issues, 'user_id'));
    }
  }

  if (problems.length > 0) return { ok: false, code: 'validation_error', message: problems.join(' ') };
  return { ok: true, item: parsed.success ? (parsed.data as Record<string, unknown>) : {}, user };
}

/** `field: message` lines in the API's words (core's messages for zod issues). */
function describe(issues: Parameters<typeof issuesToErrors>[0], field?: string): string[] {
  const { fieldErrors, nonFieldErrors } = issuesToErrors(issues);
  return [
    ...Object.entries(fieldErrors).map(([name, messages]) => `${name}: ${messages.join(' ')}`),
    ...nonFieldErrors.map((message) => (field ? `${field}: ${message}` : message)),
  ];
}
