/**
 * `GET /api/v2/bulk-jobs/`: every bulk job of every kind in one list, newest first (docs/assignments.md,
 * "Bulk jobs"). Admins see every job; anyone else the jobs they submitted, of the kinds their token
 * may read.
 */
import { actorUserId, authorize, isAdmin, permits, type RequestContext } from '../auth/actor.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { BULK_JOB_KINDS as KINDS, bulkJobKindOf, bulkJobKinds, bulkJobListSpec, type BulkJobSummary } from './bulk-job-summary.ts';

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
