/**
 * The audit recorder: every change records its entry through this one object, on the
 * transaction's own stores, beside the webhook events it records through the outbox, so the
 * change, its events and its entry commit together or not at all. One INSERT per change; the
 * field diff is built by the caller, and only for updates.
 */
import type { RequestContext } from '../auth/actor.ts';
import type { NewAuditRow } from '../ports/audit-store.ts';
import type { Stores } from '../ports/storage.ts';
import { nowIso, type Clock } from '../shared/clock.ts';
import type { IdGenerator } from '../shared/ids.ts';
import { fieldChanges, type FieldChanges } from './audit-diff.ts';
import { AUDIT_ID_PREFIX } from './audit-entry.ts';
import { auditResourceTypeOf, type AuditAction } from './audit-actions.ts';

export class AuditRecorder {
  /** entries recorded on a savepoint's stores while `holding` runs, by those stores */
  private readonly held = new WeakMap<Stores, NewAuditRow[]>();

  constructor(
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** false only where a benchmark measures what the log costs (config `audit.enabled`) */
    private readonly enabled = true,
  ) {}

  /**
   * Records `action` on the resource `publicId` (its type is the action's prefix) as done by the
   * context's actor, token and request. The system actor (the command line, an embedder) is
   * recorded as no actor. `tx` must be the stores handed to `transaction()`.
   */
  async record(tx: Stores, ctx: RequestContext, action: AuditAction, publicId: string, changes: FieldChanges | null = null): Promise<void> {
    if (!this.enabled) return;
    const row = this.entry(ctx, action, publicId, changes);
    const held = this.held.get(tx);
    if (held) held.push(row);
    else await tx.audit.append(row);
  }

  /** The same action on many resources at once (an import's batch of new rows), as one INSERT. */
  async recordMany(tx: Stores, ctx: RequestContext, action: AuditAction, publicIds: readonly string[]): Promise<void> {
    if (!this.enabled || publicIds.length === 0) return;
    const rows = publicIds.map((publicId) => this.entry(ctx, action, publicId, null));
    const held = this.held.get(tx);
    if (held) held.push(...rows);
    else await tx.audit.appendMany(rows);
  }

  private entry(ctx: RequestContext, action: AuditAction, publicId: string, changes: FieldChanges | null): NewAuditRow {
    const actor = ctx.actor;
    return {
      publicId: this.ids.prefixed(AUDIT_ID_PREFIX),
      occurredAt: nowIso(this.clock),
      action,
      actorUserId: actor.kind === 'user' ? actor.userId : null,
      tokenId: actor.kind === 'user' ? (actor.tokenId ?? null) : null,
      requestId: ctx.requestId,
      resourceType: auditResourceTypeOf(action),
      resourceId: publicId,
      changes,
    };
  }

  /**
   * Runs `work` holding back the entries recorded on `stores` (a bulk item's savepoint) rather than
   * writing them, and answers them with its result: the caller writes them with `writeHeld` in the
   * enclosing transaction, so a chunk of items writes its entries as one INSERT. When `work`
   * throws, its entries are dropped with its changes.
   */
  async holding<T>(stores: Stores, work: () => Promise<T>): Promise<{ result: T; entries: NewAuditRow[] }> {
    const entries: NewAuditRow[] = [];
    this.held.set(stores, entries);
    try {
      return { result: await work(), entries };
    } finally {
      this.held.delete(stores);
    }
  }

  /** Writes entries `holding` answered, in the transaction their changes commit in. */
  async writeHeld(tx: Stores, entries: readonly NewAuditRow[]): Promise<void> {
    if (entries.length > 0) await tx.audit.appendMany(entries);
  }

  /**
   * An update, recorded with the fields that differ between the two representations; nothing is
   * recorded when none does (a PATCH that changes nothing leaves no trace). Answers the changes.
   */
  async recordUpdate(
    tx: Stores,
    ctx: RequestContext,
    action: AuditAction,
    publicId: string,
    before: object,
    after: object,
  ): Promise<FieldChanges | null> {
    const changes = fieldChanges(before, after);
    if (changes !== null) await this.record(tx, ctx, action, publicId, changes);
    return changes;
  }
}
