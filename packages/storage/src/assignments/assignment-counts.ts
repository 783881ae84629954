/**
 * Keeps the per-write counts of assignments (core: insights/assignment-counters.ts decides what
 * each write changes; this applies it): `assignment_stats` per combination of counted facts, and
 * the counters on each content item.
 */
import type { Kysely } from 'kysely';
import { countedFacts, counterDeltas, type AssignmentState, type CountedFacts } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { toBool } from '../shared/list-builder.ts';

/** The stored columns the counted facts come from, as the row has them. */
export interface CountedRow {
  content_id: number;
  state: string;
  feedback_rating: number | null;
  is_success: number | null;
  feedback_text: string | null;
  deleted_at: string | null;
}

export const countedRowOf = (db: Kysely<Database>, id: number): Promise<CountedRow | undefined> =>
  db
    .selectFrom('assignments')
    .select(['content_id', 'state', 'feedback_rating', 'is_success', 'feedback_text', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();

export const factsOf = (row: CountedRow): CountedFacts | null =>
  countedFacts({
    contentId: row.content_id,
    state: row.state as AssignmentState,
    feedbackRating: row.feedback_rating,
    isSuccess: row.is_success === null ? null : toBool(row.is_success),
    feedbackText: row.feedback_text,
    deleted: row.deleted_at !== null,
  });

/** Applies what a write that turned `before` into `after` changes in the counts. */
export async function applyCounts(db: Kysely<Database>, before: CountedFacts | null, after: CountedFacts | null): Promise<void> {
  const deltas = counterDeltas(before, after);
  for (const { facts, by } of deltas.stats) {
    await db
      .insertInto('assignment_stats')
      .values({
        content_id: facts.contentId,
        state: facts.state,
        rating: facts.rating,
        success: facts.success,
        reviewed: facts.reviewed,
        n: by,
      })
      .onConflict((oc) =>
        oc
          .columns(['content_id', 'state', 'rating', 'success', 'reviewed'])
          .doUpdateSet((eb) => ({ n: eb('assignment_stats.n', '+', by) })),
      )
      .execute();
  }
  for (const change of deltas.content) {
    await db
      .updateTable('content_items')
      .set((eb) => ({
        total_assignments: eb('total_assignments', '+', change.total),
        completed_assignments_count: eb('completed_assignments_count', '+', change.completed),
        rating_sum: eb('rating_sum', '+', change.ratingSum),
        rating_count: eb('rating_count', '+', change.ratingCount),
      }))
      .where('id', '=', change.contentId)
      .execute();
  }
}
