/**
 * Assignments (spec "Assignment", docs/assignments.md): the API shape, the request bodies and the list
 * spec. The lifecycle itself lives in assignment-machine.ts.
 */
import { z } from 'zod';
import { contentTypes, type ContentType } from '../content/content-item.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { dateField, datetimeField, publicIdField, userRefSchema } from '../shared/schema.ts';
import { assignmentStates, isOverdue, type AssignmentLifecycle, type AssignmentState } from './assignment-machine.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export const MAX_DROP_REASON = 1000;
export const MAX_FEEDBACK_TEXT = 10_000;

/** An assignment as the API returns it and as `assignment.*` webhook events carry it. */
export const assignmentSchema = z
  .object({
    public_id: z.string(),
    user: listed(userRefSchema, { filter: true }),
    content_item: listed(z.object({ public_id: z.string(), name: z.string(), content_type: z.enum(contentTypes) }), { filter: true }),
    state: listed(z.enum(assignmentStates), { filter: 'multiple' }),
    progress: z.number(),
    score: z.number().nullable(),
    is_success: z.boolean().nullable(),
    due_date: listed(z.string().nullable(), { range: 'date', sort: true }),
    is_overdue: listed(z.boolean(), { filter: true }),
    started_at: z.string().nullable(),
    completed_datetime: z.string().nullable(),
    dropped_at: z.string().nullable(),
    exempted_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    feedback_rating: z.number().int().nullable(),
    feedback_text: z.string().nullable(),
    drop_reason: z.string().nullable(),
    attempt: z.number().int(),
    /** true when an enrollment owns the assignment (its PATCH is 409 `enrollment_managed`) */
    is_enrollment_managed: z.boolean(),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { sort: true }),
  })
  .register(apiSchemaNames, { id: 'Assignment' });
export type Assignment = z.infer<typeof assignmentSchema>;

/** Everything of the view that does not depend on the day it is read. */
export type StoredAssignmentView = Omit<Assignment, 'is_overdue'>;

/** A stored assignment: its view facts plus the internal keys and columns the rules need. */
export interface AssignmentRecord {
  id: number;
  userId: number;
  contentId: number;
  contentType: ContentType;
  /** of the content item: whether progress 1.0 completes the assignment */
  isCompletable: boolean;
  enrollmentId: number | null;
  progressBeforeCompletion: number | null;
  data: StoredAssignmentView;
}

/** The view as of `today` (UTC `YYYY-MM-DD`): `is_overdue` changes with the date, not with the row. */
export function assignmentView(record: AssignmentRecord, today: string): Assignment {
  const d = record.data;
  // listed in full so the field order of the spec's table holds in every response
  return {
    public_id: d.public_id,
    user: d.user,
    content_item: d.content_item,
    state: d.state,
    progress: d.progress,
    score: d.score,
    is_success: d.is_success,
    due_date: d.due_date,
    is_overdue: isOverdue(d, today),
    started_at: d.started_at,
    completed_datetime: d.completed_datetime,
    dropped_at: d.dropped_at,
    exempted_at: d.exempted_at,
    expires_at: d.expires_at,
    feedback_rating: d.feedback_rating,
    feedback_text: d.feedback_text,
    drop_reason: d.drop_reason,
    attempt: d.attempt,
    is_enrollment_managed: d.is_enrollment_managed,
    created: d.created,
    modified: d.modified,
  };
}

/** The lifecycle columns of a record, as the state machine reads them. */
export function lifecycleOf({ data, progressBeforeCompletion }: AssignmentRecord): AssignmentLifecycle {
  const { state, progress, started_at, completed_datetime, dropped_at, exempted_at } = data;
  return { state, progress, started_at, completed_datetime, dropped_at, exempted_at, progress_before_completion: progressBeforeCompletion };
}

/**
 * When the representation last changed: `modified`, or the first moment it became overdue
 * (midnight UTC after the due date) if that is later, so `If-Modified-Since` never hides the flip.
 */
export function lastModifiedOf(record: AssignmentRecord, today: string): string {
  const { data } = record;
  if (!isOverdue(data, today)) return data.modified;
  const becameOverdue = new Date(`${data.due_date}T00:00:00.000Z`);
  becameOverdue.setUTCDate(becameOverdue.getUTCDate() + 1);
  const at = becameOverdue.toISOString();
  return at > data.modified ? at : data.modified;
}

// ---- writes ----------------------------------------------------------------------------------

export const createAssignmentInput = z
  .strictObject({
    user_id: publicIdField(),
    content_item_id: publicIdField(),
    due_date: dateField().nullable().optional(),
    expires_at: datetimeField().nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'AssignmentCreate' });
export type CreateAssignmentInput = z.output<typeof createAssignmentInput>;

export const updateAssignmentInput = z
  .strictObject({
    due_date: dateField().nullable().optional(),
    expires_at: datetimeField().nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'AssignmentUpdate' });

export const dropInput = z
  .strictObject({
    reason: z.string().max(MAX_DROP_REASON).nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'Drop' });

export const progressInput = z
  .strictObject({
    progress: z.number().min(0).max(1),
    score: z.number().finite().nullable().optional(),
    is_success: z.boolean().nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'Progress' });

export const feedbackInput = z
  .strictObject({
    rating: z.number().int().min(1).max(5),
    text: z.string().max(MAX_FEEDBACK_TEXT).nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'Feedback' });

/** The administrative actions with their own route; `progress` has its own body and route. */
export const assignmentRouteActions = ['complete', 'drop', 'exempt', 'undo-complete', 'undo-exempt'] as const;
export type AssignmentRouteAction = (typeof assignmentRouteActions)[number];

/** `content_type` filters on the item's type, a field of the `content_item` reference. */
export const assignmentListSpec = listSpecOf(assignmentSchema, {
  filters: { content_type: { kind: 'enum', values: contentTypes, multiple: true } },
  defaultOrdering: ['created'],
});

export type { AssignmentState };
