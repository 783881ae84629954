import type { BulkJobs } from '@lectern/core';
import type { z } from 'zod';
import type { ResourceSpecs } from '../operation-spec.ts';
import { accepted, ok } from '../reply.ts';
import { sharedRoute } from '../router.ts';

/**
 * A resource's bulk job family, declared once: the submission (202 with the job), the job, and its
 * per-item results. Each resource registers the three under its own paths, written out in full.
 */
export function bulkJobRoutes(
  spec: ResourceSpecs,
  // any family: its submission checks the body it is handed itself (core's BulkJobs), whatever its type
  bulk: BulkJobs<never>,
  request: z.ZodType,
  summaries: { submit: string; job: string; items: string },
) {
  return {
    submit: sharedRoute(spec.bulk(summaries.submit, request), async (rc) => accepted(await bulk.submit(rc.ctx, rc.body()))),
    job: sharedRoute<{ readonly id: string }>(spec.job(summaries.job), async (rc) => ok(await bulk.get(rc.ctx, rc.params.id))),
    items: sharedRoute<{ readonly id: string }>(spec.jobItems(summaries.items), async (rc) =>
      ok(await bulk.items(rc.ctx, rc.params.id, rc.query)),
    ),
  };
}
