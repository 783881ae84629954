import { authorize, type RequestContext } from '../auth/actor.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { badRequest } from '../shared/errors.ts';
import { toCursorListResult, type CursorListResult, type QueryParams } from '../shared/list-query.ts';
import { parseAuditQuery, type AuditEntry } from './audit-entry.ts';

/** Entries removed per statement when pruning, so one pass never holds the write lock for long. */
const PRUNE_BATCH = 5_000;
/**
 * Entries moved per transaction, for the same reason: an import writes about 15 000 entries a
 * second on SQLite, and moving five seconds' worth at once held the lock for 0.45 s, which a
 * request's write then waited for. 5 000 take about 30 ms.
 */
const SETTLE_BATCH = 5_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export class AuditService {
  constructor(private readonly deps: ServiceDeps) {}

  /** `GET /audit-log/`: newest first, in cursor pages like webhook delivery attempts. */
  async list(ctx: RequestContext, params: QueryParams): Promise<CursorListResult<AuditEntry>> {
    authorize(ctx.actor, 'audit:read');
    const query = parseAuditQuery(params);
    const page = await this.deps.storage.audit.list(query);
    if (page === null) throw badRequest("Query parameter 'cursor' is not a cursor this list returned.");
    return toCursorListResult(query.pageSize, page, (entry) => entry.id);
  }

  /**
   * Moves the entries written since the last pass into the indexed log, oldest first, a batch a
   * transaction: a change writes its entry without index upkeep, and the indexes are brought up to
   * date here for many entries at once. Run by the process's periodic maintenance; answers how many
   * moved.
   */
  async settle(): Promise<number> {
    // an idle server takes no write transaction (nor, on PostgreSQL, the write lock) for nothing
    if (!(await this.deps.storage.audit.hasStaged())) return 0;
    let moved = 0;
    for (;;) {
      // no turn among the writers: moving committed entries decides nothing, and on PostgreSQL the
      // move is safe beside them (the argument is at the store's settle); an import's chunks used
      // to wait for each move, about a tenth of a full-size import
      const batch = await this.deps.storage.transaction((tx) => tx.audit.settle(SETTLE_BATCH), { withoutWriteLock: true });
      moved += batch;
      if (batch < SETTLE_BATCH) return moved;
    }
  }

  /**
   * Deletes the entries older than the retention period (config `audit.retentionDays`), in
   * batches until none is left. Run by the process's periodic maintenance; answers how many went.
   */
  async prune(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - this.deps.config.audit.retentionDays * DAY_MS).toISOString();
    let removed = 0;
    for (;;) {
      const batch = await this.deps.storage.audit.pruneBefore(cutoff, PRUNE_BATCH);
      removed += batch;
      if (batch < PRUNE_BATCH) return removed;
    }
  }
}
