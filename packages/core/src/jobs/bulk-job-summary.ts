/**
 * A bulk job as the bulk job list shows it, and the kinds it names: what the job store answers
 * (ports/job-store.ts) and the list service shapes (bulk-job-list.ts).
 */
import { z } from 'zod';
import type { Scope } from '../auth/scopes.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { userRefSchema } from '../shared/schema.ts';
import { jobStatuses } from './job.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

/** The kinds as the API names them, with the job kind each is stored as and the scope that reads it. */
export const BULK_JOB_KINDS = {
  users: { stored: 'users', readScope: 'users:read' },
  assignments: { stored: 'assignments', readScope: 'assignments:read' },
  enrollments: { stored: 'enrollments', readScope: 'enrollments:read' },
  events: { stored: 'events', readScope: 'events:read' },
  'event-series': { stored: 'event_series', readScope: 'events:read' },
} as const satisfies Record<string, { stored: string; readScope: Scope }>;

export type BulkJobKind = keyof typeof BULK_JOB_KINDS;
export const bulkJobKinds = Object.keys(BULK_JOB_KINDS) as [BulkJobKind, ...BulkJobKind[]];

/** The API's name of a stored job kind; undefined for jobs that are not bulk jobs (imports). */
export const bulkJobKindOf = (stored: string): BulkJobKind | undefined =>
  bulkJobKinds.find((kind) => BULK_JOB_KINDS[kind].stored === stored);

export const bulkJobSummarySchema = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    kind: listed(z.enum(bulkJobKinds), { filter: true }),
    status: listed(z.enum(jobStatuses), { filter: true }),
    /** null for a job submitted from the command line */
    created_by: userRefSchema.nullable(),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    created_at: listed(z.string(), { sort: true }),
    completed_at: z.string().nullable(),
  })
  .register(apiSchemaNames, { id: 'BulkJobSummary' });
export type BulkJobSummary = z.infer<typeof bulkJobSummarySchema>;

export const bulkJobListSpec = listSpecOf(bulkJobSummarySchema, { defaultOrdering: ['-created_at'] });
