/**
 * Synchronous batches (spec "Synchronous batch result"): every item runs in its own savepoint of
 * one transaction, so a failing item undoes only its own writes, and the result lists each
 * item's outcome by its position in the request.
 */
import { z } from 'zod';
import type { RequestContext } from '../auth/actor.ts';
import type { Storage, Stores } from '../ports/storage.ts';
import { isLecternError, type ErrorCode } from './errors.ts';

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

export interface SyncBatchResult {
  data: {
    succeeded: Array<{ public_id: string; index: number }>;
    failed: Array<{ index: number; error: { code: ErrorCode; message: string; request_id: string } }>;
  };
  meta: { total: number; succeeded_count: number; failed_count: number };
}

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
