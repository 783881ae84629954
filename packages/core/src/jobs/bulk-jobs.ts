/**
 * A bulk route family (`POST|PATCH …/bulk/`, `GET …/bulk/<id>/`, `GET …/bulk/<id>/items/`) for one
 * job kind: registers the kind on the engine, and offers the three use cases, the caller's scope
 * checked first (the family's `scopes`: one to submit, one to read).
 */
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { ListResult, QueryParams } from '../shared/list-query.ts';
import type { JobEngine, JobKind } from './job-engine.ts';
import type { Job, JobItem } from './job.ts';

/**
 * A bulk family: its job kind (also the body's wrapper key), how many items one body may carry,
 * and the scopes to submit a job and to read one.
 */
export interface BulkFamily {
  name: string;
  maxItems: number;
  scopes: { write: Scope; read: Scope };
}

export class BulkJobs<Body> {
  private readonly kind: string;
  private readonly scopes: { read: Scope; write: Scope };

  /** `apply`: how the family's items are written (the kind's `handle`, and `many` where it has one). */
  constructor(
    private readonly jobs: JobEngine,
    family: BulkFamily,
    apply: Pick<JobKind, 'handle' | 'many'>,
  ) {
    jobs.register({ name: family.name, maxItems: family.maxItems, scope: family.scopes.write, ...apply });
    this.kind = family.name;
    this.scopes = family.scopes;
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
