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
  /** One INSERT, in the caller's transaction. */
  append(row: NewAuditRow): Promise<void>;
  /** Entries matching the query, newest first; `hasMore` when another page follows. Null when the cursor is unknown. */
  list(query: AuditQuery): Promise<{ items: AuditEntry[]; hasMore: boolean } | null>;
  /** Deletes up to `limit` of the oldest entries that occurred before `cutoff`; answers how many. */
  pruneBefore(cutoff: string, limit: number): Promise<number>;
}
