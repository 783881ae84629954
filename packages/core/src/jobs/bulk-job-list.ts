/**
 * `GET /api/v2/bulk-jobs/`: every bulk job of every kind in one list, newest first (docs/assignments.md,
 * "Bulk jobs"). Admins see every job; anyone else the jobs they submitted, of the kinds their token
 * may read.
 */
import { z } from 'zod';
import { actorUserId, authorize, isAdmin, permits, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { userRefSchema } from '../shared/schema.ts';
import { jobStatuses } from './job.ts';

/** The kinds as the API names them, with the job kind each is stored as and the scope that reads it. */
const KINDS = {
  users: { stored: 'users', readScope: 'users:read' },
  assignments: { stored: 'assignments', readScope: 'assignments:read' },
  enrollments: { stored: 'enrollments', readScope: 'enrollments:read' },
  events: { stored: 'events', readScope: 'events:read' },
  'event-series': { stored: 'event_series', readScope: 'events:read' },
} as const satisfies Record<string, { stored: string; readScope: Scope }>;

export type BulkJobKind = keyof typeof KINDS;
export const bulkJobKinds = Object.keys(KINDS) as [BulkJobKind, ...BulkJobKind[]];

/** The API's name of a stored job kind; undefined for jobs that are not bulk jobs (imports). */
export const bulkJobKindOf = (stored: string): BulkJobKind | undefined => bulkJobKinds.find((kind) => KINDS[kind].stored === stored);

export const bulkJobSummarySchema = z.object({
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
});
export type BulkJobSummary = z.infer<typeof bulkJobSummarySchema>;

export const bulkJobListSpec = listSpecOf(bulkJobSummarySchema, { defaultOrdering: ['-created_at'] });

export class BulkJobListService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<BulkJobSummary>> {
    const readable = bulkJobKinds.filter((kind) => permits(ctx.actor, KINDS[kind].readScope));
    // a caller who may read none of the kinds is told which scope the first one needs
    if (readable.length === 0) authorize(ctx.actor, KINDS.users.readScope);
    const { filters, ...rest } = parseListQuery(bulkJobListSpec, params);
    // the kind filter narrows the kinds asked for, which the store takes under their stored names
    const { kind: wanted, ...otherFilters } = filters;
    const kinds = wanted === undefined ? readable : readable.filter((kind) => [wanted].flat().includes(kind));
    const query = { ...rest, filters: otherFilters };
    const page = await this.deps.storage.jobs.list(
      query,
      isAdmin(ctx.actor) ? null : actorUserId(ctx.actor),
      kinds.map((kind) => KINDS[kind].stored),
    );
    return toListResult(query, page, (row) => ({ ...row, kind: bulkJobKindOf(row.kind)! }));
  }
}
