/**
 * What each kind of CSV import reads: its columns, the scope it needs (the kind's bulk route's),
 * the bulk-job kind whose per-item write it reuses, and the core schema a row must pass (the same
 * field rules the API applies, never restated here). Shared by the server and the CLI's offline
 * dry run, so both judge a row alike.
 */
import type { z } from 'zod';
import { createAssignmentInput, type CreateAssignmentInput } from '../assignments/assignment.ts';
import type { Scope } from '../auth/scopes.ts';
import { createEnrollmentInput, type CreateEnrollmentInput } from '../enrollments/enrollment.ts';
import { bulkUserItem } from '../users/user.ts';

export const importKinds = ['users', 'assignments', 'enrollments'] as const;
export type ImportKindName = (typeof importKinds)[number];

/**
 * The item a row of each kind is once checked (row-check.ts): the kind's bulk item through its
 * schema, its user named by public id where the file names one. The kind's batch write takes these.
 */
export interface ImportItems {
  users: z.output<typeof bulkUserItem>;
  assignments: CreateAssignmentInput;
  enrollments: CreateEnrollmentInput;
}

export interface ImportKind {
  name: ImportKindName;
  /** every column the file may have (lower case); the header may name them in any order and case */
  columns: readonly string[];
  /** columns every file must have */
  required: readonly string[];
  /** the file names its user by `user_email` or `user_id` (at least one of the two columns) */
  userReference: boolean;
  /** the bulk route's scopes: writing to submit, reading to see an import and its report */
  scope: Scope;
  readScope: Scope;
  /** core's schema of one bulk item, without `user_id` where the file names users by reference */
  rowSchema: z.ZodType;
  /** the item fields that say which resource a row is about: two rows with equal ones are duplicates */
  identity: readonly string[];
  /** the item fields `update=true` compares with an existing user and changes when they differ */
  updatable?: readonly string[];
  /** turns a cell's text into the item field's JSON value */
  cellValue?(column: string, text: string): unknown;
}

/** `true` / `false` in any case; anything else is kept as text so the schema reports it. */
const booleanCell = (text: string): unknown => {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return text;
};

export const IMPORT_KINDS: Record<ImportKindName, ImportKind> = {
  users: {
    name: 'users',
    columns: ['email', 'name', 'role', 'employee_id'],
    required: ['email', 'name'],
    userReference: false,
    scope: 'users:write',
    readScope: 'users:read',
    rowSchema: bulkUserItem,
    identity: ['email'],
    updatable: ['name', 'role', 'employee_id'],
  },
  assignments: {
    name: 'assignments',
    columns: ['user_email', 'user_id', 'content_item_id', 'due_date'],
    required: ['content_item_id'],
    userReference: true,
    scope: 'assignments:write',
    readScope: 'assignments:read',
    rowSchema: createAssignmentInput.omit({ user_id: true }),
    identity: ['user_id', 'content_item_id'],
  },
  enrollments: {
    name: 'enrollments',
    columns: ['user_email', 'user_id', 'event_id', 'attendance_method', 'accept_waitlist'],
    required: ['event_id', 'attendance_method'],
    userReference: true,
    scope: 'enrollments:write',
    readScope: 'enrollments:read',
    rowSchema: createEnrollmentInput.omit({ user_id: true }),
    identity: ['user_id', 'event_id'],
    cellValue: (column, text) => (column === 'accept_waitlist' ? booleanCell(text) : text),
  },
};

export const isImportKind = (value: string): value is ImportKindName => (importKinds as readonly string[]).includes(value);
