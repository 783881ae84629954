import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { HeldListRead } from '@lectern/core';

/**
 * Opens a read of the whole rest of a list (its SQL, without LIMIT) that stays open while an
 * export takes its rows batch by batch: on PostgreSQL, a cursor (postgres/export-cursor.ts).
 * `undefined`: none can be opened now (as many are open as allowed), so the list is read in
 * keyset batches as before.
 */
export type OpenHeldRead = (sql: string, parameters: readonly unknown[]) => Promise<HeldListRead> | undefined;

const opener = new WeakMap<Kysely<Database>, OpenHeldRead>();

/** Lets exports of lists read on `db` itself (the root database, never a transaction) hold their rest open. */
export function allowHeldReads(db: Kysely<Database>, open: OpenHeldRead): void {
  opener.set(db, open);
}

export function heldReadsOf(db: Kysely<Database>): OpenHeldRead | undefined {
  return opener.get(db);
}
