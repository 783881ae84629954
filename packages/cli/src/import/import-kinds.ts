/**
 * What each kind of import reads and sends: its columns, the bulk route and its item limit, and
 * the core schema an item must pass (the same field rules the API applies, never restated here).
 */
import {
  type parseInput,
  MAX_BULK_ASSIGNMENTS,
  MAX_BULK_ENROLLMENTS,
  MAX_BULK_USERS,
  bulkUserItem,
  createAssignmentInput,
  createEnrollmentInput,
} from '@lectern/core';

export const importKinds = ['users', 'assignments', 'enrollments'] as const;
export type ImportKindName = (typeof importKinds)[number];

/** A core schema, applied with core's parseInput so rows fail in the API's own words. */
export type ItemSchema = Parameters<typeof parseInput>[0];

export interface ImportKind {
  name: ImportKindName;
  /** every column the file may have (lower case); the header may name them in any order and case */
  columns: readonly string[];
  /** columns every file must have */
  required: readonly string[];
  /** the file names its user by `user_email` or `user_id` (at least one of the two columns) */
  userReference: boolean;
  /** `POST <bulkPath>` submits a job; `GET <bulkPath><id>/items/` reads its outcomes */
  bulkPath: string;
  maxItems: number;
  /** core's schema of one bulk item, without `user_id` where the file names users by reference */
  rowSchema: ItemSchema;
  /** the item fields that say which resource a row is about: two rows with equal ones are duplicates */
  identity: readonly string[];
  /** the item fields `--update` compares with an existing resource and PATCHes when they differ */
  updatable?: readonly string[];
  /** turns a cell's text into the item field's JSON value; undefined = the cell is empty (not given) */
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
    bulkPath: '/api/v2/users/bulk/',
    maxItems: MAX_BULK_USERS,
    rowSchema: bulkUserItem,
    identity: ['email'],
    updatable: ['name', 'role', 'employee_id'],
  },
  assignments: {
    name: 'assignments',
    columns: ['user_email', 'user_id', 'content_item_id', 'due_date'],
    required: ['content_item_id'],
    userReference: true,
    bulkPath: '/api/v2/assignments/bulk/',
    maxItems: MAX_BULK_ASSIGNMENTS,
    rowSchema: createAssignmentInput.omit({ user_id: true }),
    identity: ['user_id', 'content_item_id'],
  },
  enrollments: {
    name: 'enrollments',
    columns: ['user_email', 'user_id', 'event_id', 'attendance_method', 'accept_waitlist'],
    required: ['event_id', 'attendance_method'],
    userReference: true,
    bulkPath: '/api/v2/enrollments/bulk/',
    maxItems: MAX_BULK_ENROLLMENTS,
    rowSchema: createEnrollmentInput.omit({ user_id: true }),
    identity: ['user_id', 'event_id'],
    cellValue: (column, text) => (column === 'accept_waitlist' ? booleanCell(text) : text),
  },
};

export const isImportKind = (value: string): value is ImportKindName => (importKinds as readonly string[]).includes(value);
