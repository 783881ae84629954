/**
 * Synchronous batches (spec "Synchronous batch result"): every item runs in its own savepoint of
 * one transaction, so a failing item undoes only its own writes, and the result lists each
 * item's outcome by its position in the request.
 */
import { z } from 'zod';
import type { RequestContext } from '../auth/actor.ts';
import type { Storage, Stores } from '../ports/storage.ts';
import { isLecternError } from './errors.ts';

export const MAX_SYNC_BATCH_ITEMS = 100;

/**
 * The `items` envelope every batch shares: 1–100 objects naming a `public_id`. Problems here fail
 * the whole request; an id that names nothing fails only its item.
 */
export const batchItemsField = () =>
  z
    .array(z.strictObject({ public_id: z.string() }))
    .min(1)
    .max(MAX_SYNC_BATCH_ITEMS);

/** What a batch answers: each item's outcome by its position in the request, and the counts. */
export const syncBatchResultSchema = z.object({
  data: z.object({
    succeeded: z.array(z.object({ public_id: z.string(), index: z.number().int() })),
    failed: z.array(
      z.object({
        index: z.number().int(),
        error: z.object({ code: z.string(), message: z.string(), request_id: z.string() }).passthrough(),
      }),
    ),
  }),
  meta: z.object({ total: z.number().int(), succeeded_count: z.number().int(), failed_count: z.number().int() }),
});
export type SyncBatchResult = z.output<typeof syncBatchResultSchema>;

/**
 * Runs `work` for each item, each in its own savepoint. Domain errors become that item's failure;
 * anything else is a bug and fails the whole batch, rolling everything back.
 */
export async function runSyncBatch<Item extends { public_id: string }>(
  storage: Storage,
  ctx: RequestContext,
  items: readonly Item[],
  work: (tx: Stores, item: Item, index: number) => Promise<void>,
): Promise<SyncBatchResult> {
  const result: SyncBatchResult = {
    data: { succeeded: [], failed: [] },
    meta: { total: items.length, succeeded_count: 0, failed_count: 0 },
  };
  await storage.transaction(async (tx) => {
    for (const [index, item] of items.entries()) {
      try {
        await tx.savepoint((sp) => work(sp, item, index));
        result.data.succeeded.push({ public_id: item.public_id, index });
      } catch (error) {
        if (!isLecternError(error)) throw error;
        result.data.failed.push({ index, error: { code: error.code, message: error.message, request_id: ctx.requestId } });
      }
    }
  });
  result.meta.succeeded_count = result.data.succeeded.length;
  result.meta.failed_count = result.data.failed.length;
  return result;
}
