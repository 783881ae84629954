/**
 * Reading a whole list in batches, for exports (`format=csv|ndjson`): the edge runs the list's own
 * route once per batch inside `inListBatch`, and the list is read from where the previous batch
 * ended (keyset pagination on the list's order and its unique tiebreak) instead of by page number.
 * So every list that goes through parseListQuery and the storage list builder streams with no code
 * of its own, with the same scopes, filters, visibility and order as its pages.
 *
 * The batch travels in an AsyncLocalStorage rather than a parameter because a list service builds
 * its query from the request's parameters (a saved report rebuilds them); parseListQuery takes it
 * into the ListQuery, where storage reads it explicitly.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ListBatch {
  /** rows per batch */
  readonly size: number;
  /** the sort key values of the last row read (the list's keys, then its tiebreak); null at first */
  after: readonly unknown[] | null;
  /** set by storage: the sort key values of the last row of the batch it read */
  next: readonly unknown[] | null;
  /** set when a list query took the batch: a route that never did is not a batched list */
  taken: boolean;
  /** set by storage when it read the batch: a list whose store pages another way is exported page by page */
  read: boolean;
  /**
   * Set by storage when it keeps the rest of the list open for the next batches (PostgreSQL: a
   * cursor on a connection of its own); whoever runs the batches closes it when the list ends
   * or the export stops.
   */
  held?: HeldListRead;
}

/** The rest of a list, held open where it is read: the next rows of it in order, batch by batch. */
export interface HeldListRead {
  /** the next `rows` rows; fewer at the end of the list */
  read(rows: number): Promise<unknown[]>;
  /** lets go of what holds the list open; again is harmless */
  close(): Promise<void>;
}

const current = new AsyncLocalStorage<ListBatch>();

/** Runs `read` (a list route) so that its list query reads the batch after `batch.after`. */
export function inListBatch<T>(batch: ListBatch, read: () => T): T {
  batch.taken = false;
  batch.read = false;
  batch.next = null;
  return current.run(batch, read);
}

/**
 * Whether the current read is an export's, whatever way its list is paged (a list paged by cursor
 * is exported cursor by cursor in a batch it never takes): storage may read it off the request thread.
 */
export function readForExport(): boolean {
  return current.getStore() !== undefined;
}

/** The batch the current list read is for, once: a second list query in the same read pages normally. */
export function takeListBatch(): ListBatch | undefined {
  const batch = current.getStore();
  if (batch === undefined || batch.taken) return undefined;
  batch.taken = true;
  return batch;
}
