/**
 * Rows of `users` and `content_items` as the storage keeps them, for the tests and benches that
 * seed those tables directly: thousands of rows, or statements counted from the first, where
 * going through the API would take minutes or add statements of its own. A plain learner and a
 * plain article by default; a caller gives what its test is about.
 */
import type { Insertable } from 'kysely';
import { foldCase } from '@lectern/core/ports';
import type { Database } from '../../packages/storage/src/schema.ts';

type Row<T extends keyof Database> = Insertable<Database[T]>;

/** A learner's row, its email and name folded as the storage folds them. */
export function storedUser(
  fields: Partial<Row<'users'>> & Pick<Row<'users'>, 'public_id' | 'email' | 'name' | 'date_joined'>,
): Row<'users'> {
  return {
    role: 'user',
    is_active: 1,
    ...fields,
    email_lower: foldCase(fields.email),
    name_folded: foldCase(fields.name),
    modified: fields.modified ?? fields.date_joined,
  };
}

/** A content item's row: a self-assignable article without media unless `fields` say otherwise. */
export function storedContentItem(
  fields: Partial<Row<'content_items'>> & Pick<Row<'content_items'>, 'public_id' | 'name' | 'created'>,
): Row<'content_items'> {
  return {
    content_type: 'article',
    description: '',
    media_status: 'none',
    is_hidden: 0,
    is_completable: 1,
    is_self_assignable: 1,
    duration_minutes: 0,
    ...fields,
    name_folded: foldCase(fields.name),
    modified: fields.modified ?? fields.created,
  };
}
