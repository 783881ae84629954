/**
 * A bulk route family (`POST|PATCH …/bulk/`, `GET …/bulk/<id>/`, `GET …/bulk/<id>/items/`) for one
 * job kind: registers the kind on the engine, and offers the three use cases, the caller's scope
 * checked first (the kind's `scope` to submit, `readScope` to read).
 */
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { ListResult, QueryParams } from '../shared/list-query.ts';
import type { JobEngine, JobKind } from './job-engine.ts';
import type { Job, JobItem } from './job.ts';

export class BulkJobs<Body> {
  private readonly kind: string;
  private readonly scopes: { read: Scope; write: Scope };

  constructor(
    private readonly jobs: JobEngine,
    kind: JobKind,
    readScope: Scope,
  ) {
    jobs.register(kind);
    this.kind = kind.name;
    this.scopes = { read: readScope, write: kind.scope };
  }

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
