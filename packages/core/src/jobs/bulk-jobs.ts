/**
 * The three use cases every bulk route family has (`POST|PATCH …/bulk/`, `GET …/bulk/<id>/`,
 * `GET …/bulk/<id>/items/`) for one job kind: the caller's scopes checked, then the engine.
 */
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { ListResult, QueryParams } from '../shared/list-query.ts';
import type { JobEngine } from './job-engine.ts';
import type { Job, JobItem } from './job.ts';

export class BulkJobs<Body> {
  constructor(
    private readonly jobs: JobEngine,
    private readonly kind: string,
    private readonly scopes: { read: Scope; write: Scope },
  ) {}

  /** Stores the job and answers it (the route's 202); items run in the background. */
  submit(ctx: RequestContext, body: Body): Promise<Job> {
    authorize(ctx.actor, this.scopes.write);
    return this.jobs.submit(ctx, this.kind, body);
  }

  get(ctx: RequestContext, publicId: string): Promise<Job> {
    authorize(ctx.actor, this.scopes.read);
    return this.jobs.get(ctx, this.kind, publicId);
  }

  /** The job's processed items, one page. */
  items(ctx: RequestContext, publicId: string, params: QueryParams): Promise<ListResult<JobItem>> {
    authorize(ctx.actor, this.scopes.read);
    return this.jobs.items(ctx, this.kind, publicId, params);
  }
}
