/** Bulk async jobs (spec "Bulk async job", "Bulk async jobs (common rules)", docs/assignments.md). */
import { z } from 'zod';
import type { Actor } from '../auth/actor.ts';
import { scopes, roles } from '../auth/scopes.ts';
import { LecternError, type ErrorCode } from '../shared/errors.ts';
import type { ListSpec } from '../shared/list-query.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

export const jobStatuses = ['pending', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof jobStatuses)[number];
export const isTerminal = (status: JobStatus): boolean => status === 'completed' || status === 'failed';

/** A job as the submit (202) and status routes return it; counts only, no per-item detail. */
export const jobSchema = z
  .object({
    id: z.string(),
    status: z.enum(jobStatuses),
    total: z.number().int(),
    processed: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    error_message: z.string().nullable(),
  })
  .register(apiSchemaNames, { id: 'Job' });
export type Job = z.infer<typeof jobSchema>;

export const jobItemStatuses = ['succeeded', 'failed'] as const;

/**
 * One processed item as `GET …/bulk/<id>/items/` lists it (an addition to the spec, whose job keeps
 * counts only). `index` is the item's zero-based position in the submitted array; `public_id` the
 * resource it created, updated or found; `created` tells a new resource (true) from an existing or
 * updated one (false), null on a failed item.
 */
export const jobItemSchema = z
  .object({
    index: z.number().int(),
    status: z.enum(jobItemStatuses),
    public_id: z.string().nullable(),
    created: z.boolean().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .register(apiSchemaNames, { id: 'JobItem' });
export type JobItem = z.infer<typeof jobItemSchema>;

export const jobItemListSpec = {
  filters: { status: { kind: 'enum', values: jobItemStatuses } },
  ordering: ['index'],
  defaultOrdering: ['index'],
} as const satisfies ListSpec;

/** What a job kind's handler reports for an item it applied. */
export interface AppliedItem {
  publicId: string;
  created: boolean;
}

/**
 * An item failure about an existing resource (a duplicate email's user): the items route shows
 * that resource's `public_id` on the failed item.
 */
export class ItemFailure extends LecternError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly publicId: string,
  ) {
    super(code, message);
  }
}

/**
 * The submitting actor, kept with the job. Each chunk re-reads the user (and the token, when
 * `tokenId` is set) and acts with the rights they have then (submitter-authority.ts); `role` and
 * `scopes` are what they were at submission, `scopes` the limit of a job submitted without a token.
 * Jobs stored before `tokenId` existed have none and are checked through the user alone.
 */
export const storedActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('system') }),
  z.object({
    kind: z.literal('user'),
    userId: z.number().int(),
    publicId: z.string(),
    role: z.enum(roles),
    scopes: z.array(z.enum(scopes)),
    tokenId: z.number().int().optional(),
  }),
]);
export type StoredActor = z.infer<typeof storedActorSchema>;

export const storeActor = (actor: Actor): StoredActor =>
  actor.kind === 'system'
    ? { kind: 'system' }
    : {
        kind: 'user',
        userId: actor.userId,
        publicId: actor.publicId,
        role: actor.role,
        scopes: [...actor.scopes],
        ...(actor.tokenId !== undefined ? { tokenId: actor.tokenId } : {}),
      };

export interface JobRecord extends StoredRecord<Job> {
  kind: string;
  actor: StoredActor;
  requestId: string;
}

/**
 * The request envelope of a bulk submit: `{<key>: [item, …]}` with 1..max items. Items are not
 * validated here: a bad item fails on its own while the job runs (docs/assignments.md).
 */
export const bulkEnvelope = (key: string, max: number) => z.strictObject({ [key]: z.array(z.unknown()).min(1).max(max) });
