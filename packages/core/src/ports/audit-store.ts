import type { AuditEntry, AuditQuery } from '../audit/audit-entry.ts';
import type { FieldChanges } from '../audit/audit-diff.ts';

/** One entry as the recorder writes it: internal ids for the actor and token, resolved when read. */
export interface NewAuditRow {
  publicId: string;
  occurredAt: string;
  action: string;
  actorUserId: number | null;
  tokenId: number | null;
  requestId: string | null;
  resourceType: string;
  resourceId: string;
  changes: FieldChanges | null;
}

export interface AuditStore {
  /**
   * One INSERT, in the caller's transaction. It may land in a staging area that `settle` empties
   * (the kysely store keeps one without indexes, so the write stays cheap); `list` reads both.
   */
  append(row: NewAuditRow): Promise<void>;
  /** Several entries as one INSERT, in the caller's transaction, as `append` would write them one by one. */
  appendMany(rows: readonly NewAuditRow[]): Promise<void>;
  /** Whether `append` staged entries `settle` has not moved yet: asked outside a transaction, cheaply. */
  hasStaged(): boolean | Promise<boolean>;
  /**
   * Moves what `append` staged into the indexed log, in the caller's transaction, the oldest
   * `limit` entries when it is given (else all); answers how many.
   */
  settle(limit?: number): Promise<number>;
  /** Entries matching the query, newest first; `hasMore` when another page follows. Null when the cursor is unknown. */
  list(query: AuditQuery): Promise<{ items: AuditEntry[]; hasMore: boolean } | null>;
  /** Deletes up to `limit` of the oldest entries that occurred before `cutoff`; answers how many. */
  pruneBefore(cutoff: string, limit: number): Promise<number>;
}
