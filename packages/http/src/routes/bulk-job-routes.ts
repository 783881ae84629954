import type { BulkJobs } from '@lectern/core';
import type { z } from 'zod';
import type { ResourceSpecs } from '../operation-spec.ts';
import { accepted, ok } from '../reply.ts';
import { sharedRoute, sharedRouteById } from '../router.ts';

/**
 * A resource's bulk job family, declared once: the submission (202 with the job), the job, and its
 * per-item results. Each resource registers the three under its own paths, written out in full.
 */
export function bulkJobRoutes<Body>(
  spec: ResourceSpecs,
  bulk: BulkJobs<Body>,
  request: z.ZodType<unknown, Body>,
  summaries: { submit: string; job: string; items: string },
) {
  return {
    submit: sharedRoute(spec.bulk(summaries.submit, request), async (rc) => accepted(await bulk.submit(rc.ctx, rc.body()))),
    job: sharedRouteById(spec.job(summaries.job), async (rc) => ok(await bulk.get(rc.ctx, rc.params.id))),
    items: sharedRouteById(spec.jobItems(summaries.items), async (rc) => ok(await bulk.items(rc.ctx, rc.params.id, rc.query))),
  };
}
