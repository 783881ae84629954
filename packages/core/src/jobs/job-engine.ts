/**
 * The durable bulk-job engine. A submit stores the job and every item before answering 202; one
 * worker (an in-process p-queue of concurrency 1) then runs the items in small chunks, each chunk
 * one transaction, giving the event loop back between chunks so API requests interleave.
 *
 * Exactly-once per item: an item's effect (in its own savepoint) and its recorded outcome commit
 * in the same transaction, so after a crash the job resumes at the first item without an outcome
 * and nothing is lost or counted twice.
 *
 * Several processes may share the database. A job runs in the one process holding its lease, which
 * every chunk renews as its first write (so a process that lost the lease cannot commit a chunk);
 * every process polls for jobs it may take (and, on PostgreSQL, wakes when one is submitted or
 * handed back), so a job submitted to one process or left by one that died is picked up by another
 * within a lease and a poll (docs/assignments.md, "Bulk jobs").
 *
 * Other areas add a job kind with `register`: the kind names the wrapper key and a per-item
 * handler that reports the resource it created, updated or found (kept for the items route), or
 * throws a LecternError to fail the item.
 */
import PQueue from 'p-queue';
import { systemActor, type Actor, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { NewAuditRow } from '../ports/audit-store.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { isLecternError, notFound, type LecternError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { parseInput } from '../shared/validation.ts';
import { failedOutcome } from './job-item-rules.ts';
import { actingSubmitter, type SubmitterState } from './submitter-authority.ts';
import type { JobItemOutcome } from '../ports/job-store.ts';
import {
  bulkEnvelope,
  isTerminal,
  jobItemListSpec,
  storeActor,
  type AppliedItem,
  type Job,
  type JobItem,
  type JobRecord,
  type StoredActor,
} from './job.ts';

export interface JobKind {
  /** the job kind and the request's wrapper key: `users`, `assignments`, `enrollments`, … */
  name: string;
  maxItems: number;
  /** what the submitter must still be allowed when each chunk runs (the submit route's scope) */
  scope: Scope;
  /**
   * Applies one item inside a savepoint of the chunk's transaction, acting as `ctx.actor` (the
   * submitter), and names the resource it created (`created: true`) or found or updated (false).
   * A LecternError fails the item alone; any other error is a fault of the job.
   */
  handle(tx: Stores, ctx: RequestContext, item: unknown, index: number): Promise<AppliedItem>;
  /**
   * The kind's write of a whole chunk, where it has one: the rules and writes of `handle` for many
   * items at once (one read of what they share, multi-row inserts), in one savepoint. Answers each
   * item it applied, or the LecternError `handle` would have failed it with, and leaves undefined
   * those it does not take: they go through `handle` after it, in order.
   */
  many?(tx: Stores, ctx: RequestContext, items: readonly unknown[]): Promise<ReadonlyArray<AppliedItem | LecternError | undefined>>;
  /**
   * For a kind whose work is not items stored with the job (a CSV import keeps its rows in tables
   * of its own): runs the next chunk itself in the chunk's transaction, reading the submitter's
   * authority with `authorityFor` as the items' chunks do; true when nothing is left.
   */
  runChunk?(tx: Stores, job: JobRecord): Promise<boolean>;
  /** Work before each chunk that must not hold the chunk's write lock, outside any transaction. */
  beforeChunk?(job: JobRecord): Promise<void>;
  /** Told, outside any transaction, when the engine gives the job up after unexpected errors. */
  failed?(jobId: number, message: string): Promise<void>;
}

/** Who a chunk acts as: the submitter with the rights they have now, or why they may no longer run it. */
export type ChunkAuthority = { ctx: RequestContext } | { refusal: LecternError };

export interface JobEngineOptions {
  /** items per transaction */
  chunkSize: number;
  /** pause between chunks; 0 yields to the event loop only */
  pauseMs: number;
  /** how long a chunk's lease on its job lasts */
  leaseSeconds: number;
  /** how often to look for jobs to take */
  pollIntervalMs: number;
  /**
   * Unexpected errors are retried after these waits before the job is declared failed; the
   * chunk's transaction rolled back, so a retry starts clean.
   */
  retryDelaysMs: readonly number[];
  /** this process, as the holder of job leases */
  instanceId: string;
}

/** The chunk's lease renewal found another process holding the job: this process leaves it. */
class LeaseLost extends Error {}

/**
 * A kind with a batch write takes this many times `chunkSize` items per chunk (200 at the default
 * 25): its items cost a few multi-row statements together, so at 25 a chunk's own round trips
 * (lease, submitter, outcomes, audit) and its turn for the write lock outweighed them. The items
 * the batch write leaves still go through `handle` at most `chunkSize` to a chunk.
 */
const BATCHED_CHUNK_FACTOR = 8;

const sleep = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

export class JobEngine {
  private readonly kinds = new Map<string, JobKind>();
  private readonly queue = new PQueue({ concurrency: 1 });
  private readonly queued = new Set<number>();
  private running = false;
  private poll: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;
  /** set when another thread of this process runs the jobs: it is told of each new one */
  private runner: ((jobId: number) => void) | undefined;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly options: JobEngineOptions,
  ) {}

  private get owner(): string {
    return this.options.instanceId;
  }

  register(kind: JobKind): void {
    if (this.kinds.has(kind.name)) throw new Error(`job kind '${kind.name}' is already registered`);
    this.kinds.set(kind.name, kind);
  }

  /**
   * Validates the envelope (422 with nothing stored when it is wrong), stores the job with its
   * items, and schedules it. The caller has authorized the submit.
   */
  async submit(ctx: RequestContext, kindName: string, body: unknown): Promise<Job> {
    const kind = this.requireKind(kindName);
    const input = parseInput(bulkEnvelope(kind.name, kind.maxItems), body);
    const items = input[kind.name] as unknown[];
    const record = await this.deps.storage.transaction((tx) =>
      tx.jobs.insert(
        {
          publicId: this.deps.ids.uuid(),
          kind: kind.name,
          actor: storeActor(ctx.actor),
          requestId: ctx.requestId,
          createdAt: nowIso(this.deps.clock),
        },
        items,
      ),
    );
    this.schedule(record.id);
    return record.view;
  }

  /**
   * Stores a job without items in the caller's transaction, for a kind that runs its own chunks;
   * `wake` schedules it once that transaction has committed.
   */
  enqueue(tx: Stores, ctx: RequestContext, kindName: string): Promise<JobRecord> {
    const kind = this.requireKind(kindName);
    if (!kind.runChunk) throw new Error(`job kind '${kind.name}' takes its items at submission`);
    return tx.jobs.insert(
      {
        publicId: this.deps.ids.uuid(),
        kind: kind.name,
        actor: storeActor(ctx.actor),
        requestId: ctx.requestId,
        createdAt: nowIso(this.deps.clock),
      },
      [],
    );
  }

  /** Schedules a stored job in this process (when the worker runs); others find it when it is announced, or by polling. */
  wake(jobId: number): void {
    this.schedule(jobId);
  }

  /** A registered kind's per-item write, for work that applies the same items another way (imports). */
  itemHandler(kindName: string): JobKind['handle'] {
    return this.requireKind(kindName).handle;
  }

  /**
   * A job of this kind; 404 for another kind's job and, unless the caller is an admin or the
   * system, for a job someone else submitted.
   */
  async get(ctx: RequestContext, kindName: string, publicId: string): Promise<Job> {
    return (await this.requireVisible(ctx, kindName, publicId)).view;
  }

  /** The job's processed items by `index`, with the visibility of `get`. */
  async items(ctx: RequestContext, kindName: string, publicId: string, params: QueryParams): Promise<ListResult<JobItem>> {
    const query = parseListQuery(jobItemListSpec, params);
    const job = await this.requireVisible(ctx, kindName, publicId);
    return toListResult(query, await this.deps.storage.jobs.listItems(job.id, query), (item) => item);
  }

  private async requireVisible(ctx: RequestContext, kindName: string, publicId: string): Promise<JobRecord> {
    const record = isUuid(publicId) ? await this.deps.storage.jobs.findByPublicId(publicId) : undefined;
    const actor = ctx.actor;
    const mine =
      actor.kind === 'system' || actor.role === 'admin' || (record?.actor.kind === 'user' && record.actor.userId === actor.userId);
    if (!record || record.kind !== kindName || !mine) throw notFound('Bulk job');
    return record;
  }

  /**
   * Leaves the jobs to another runner over the same database (a worker thread with a connection of
   * its own, so that no chunk holds up this thread's requests): each job stored here is handed to
   * `wake` instead of run. `undefined` takes them back; `start` then runs them here again.
   */
  runElsewhere(wake: ((jobId: number) => void) | undefined): void {
    this.runner = wake;
  }

  /** Starts the worker: resumes the jobs no live process holds, then keeps looking for more. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    // jobs submitted or handed back by other processes, announced as they commit (PostgreSQL)
    this.stopListening = this.deps.storage.wakeUps?.()?.listen('jobs', () => void this.scheduleClaimable().catch(() => undefined));
    await this.scheduleClaimable();
    this.poll = setInterval(() => void this.scheduleClaimable().catch(() => undefined), this.options.pollIntervalMs);
    this.poll.unref();
  }

  /**
   * Takes no further chunk, resolves once the chunk in progress has committed, and hands this
   * process's jobs over to the others at once rather than when their leases run out.
   */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.poll);
    this.stopListening?.();
    this.queue.clear();
    await this.queue.onIdle();
    await this.deps.storage.jobs.release(this.owner);
  }

  private async scheduleClaimable(): Promise<void> {
    const now = nowIso(this.deps.clock);
    for (const job of await this.deps.storage.jobs.claimable(this.owner, now)) this.schedule(job.id);
  }

  /** Takes or renews this process's lease on the job; false when another process holds it. */
  private claim(tx: Stores, jobId: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + this.options.leaseSeconds * 1000).toISOString();
    return tx.jobs.claim(jobId, this.owner, until, now.toISOString());
  }

  /** Resolves once every scheduled job has finished (tests, embedders running jobs inline). */
  idle(): Promise<void> {
    return this.queue.onIdle();
  }

  private requireKind(name: string): JobKind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no job kind '${name}' is registered`);
    return kind;
  }

  private schedule(jobId: number): void {
    if (this.runner) return this.runner(jobId);
    if (!this.running || this.queued.has(jobId)) return;
    this.queued.add(jobId);
    void this.queue.add(async () => {
      try {
        await this.run(jobId);
      } finally {
        this.queued.delete(jobId);
      }
    });
  }

  private async run(jobId: number): Promise<void> {
    const storage = this.deps.storage;
    const job = await storage.jobs.findById(jobId);
    if (!job || isTerminal(job.view.status)) return;
    const kind = this.kinds.get(job.kind);
    if (!kind) {
      await this.finish(jobId, 'failed', `No handler is registered for jobs of kind '${job.kind}'.`);
      return;
    }
    if (!(await storage.transaction((tx) => this.claim(tx, jobId)))) return;
    if (job.view.status === 'pending') await storage.jobs.setStatus(jobId, 'processing');

    let failures = 0;
    while (this.running) {
      let finished: boolean;
      try {
        await kind.beforeChunk?.(job);
        finished = await storage.transaction((tx) => this.runChunk(tx, job, kind));
        failures = 0;
      } catch (error) {
        if (error instanceof LeaseLost) return;
        if (failures >= this.options.retryDelaysMs.length) {
          const message = `An unexpected error stopped the job: ${(error as Error)?.message ?? String(error)}`;
          await this.finish(jobId, 'failed', message);
          await kind.failed?.(jobId, message);
          return;
        }
        await sleep(this.options.retryDelaysMs[failures++]!);
        continue;
      }
      if (finished) return;
      await sleep(this.options.pauseMs);
    }
  }

  /**
   * One chunk in the caller's transaction; true when the job had nothing left and is now completed.
   * The chunk acts as the submitter is now, read in the same transaction as its writes; when the
   * submitter may no longer run the job, its items fail with that `forbidden`.
   */
  private async runChunk(tx: Stores, job: JobRecord, kind: JobKind): Promise<boolean> {
    if (!(await this.claim(tx, job.id))) throw new LeaseLost();
    if (kind.runChunk) {
      const done = await kind.runChunk(tx, job);
      if (done) await tx.jobs.setStatus(job.id, 'completed', { at: nowIso(this.deps.clock), errorMessage: null });
      return done;
    }
    const { chunkSize } = this.options;
    const limit = kind.many ? chunkSize * BATCHED_CHUNK_FACTOR : chunkSize;
    const items = await tx.jobs.nextItems(job.id, limit);
    if (items.length === 0) {
      await tx.jobs.setStatus(job.id, 'completed', { at: nowIso(this.deps.clock), errorMessage: null });
      return true;
    }
    const authority = await this.authorityFor(tx, job.actor, job.requestId, kind.scope);
    const ctx = 'ctx' in authority ? authority.ctx : undefined;
    const refusal = 'refusal' in authority ? authority.refusal : undefined;
    // the items' audit entries are written together at the end of the chunk, as one INSERT
    const entries: NewAuditRow[] = [];
    const answers = ctx && kind.many ? await this.applyMany(tx, ctx, kind.many, items, entries) : [];
    const outcomes: Array<{ position: number; outcome: JobItemOutcome }> = [];
    let handled = 0;
    for (const [i, item] of items.entries()) {
      const answer = answers[i];
      let outcome: JobItemOutcome;
      if (answer !== undefined) outcome = isLecternError(answer) ? failedOutcome(answer) : { status: 'succeeded', ...answer };
      else if (!refusal && handled >= chunkSize)
        continue; // left for the next chunk, in order
      else {
        handled++;
        try {
          if (refusal) throw refusal;
          const applied = await tx.savepoint(async (sp) => {
            const held = await this.deps.audit.holding(sp, () => kind.handle(sp, ctx!, item.payload, item.position));
            entries.push(...held.entries);
            return held.result;
          });
          outcome = { status: 'succeeded', ...applied };
        } catch (error) {
          if (!isLecternError(error)) throw error;
          outcome = failedOutcome(error);
        }
      }
      outcomes.push({ position: item.position, outcome });
    }
    await tx.jobs.recordOutcomes(job.id, outcomes);
    await this.deps.audit.writeHeld(tx, entries);
    // fewer items than asked for were all that was left: when none waits for the next chunk, the
    // job completes with its last outcomes rather than in a transaction of its own
    if (items.length < limit && outcomes.length === items.length) {
      await tx.jobs.setStatus(job.id, 'completed', { at: nowIso(this.deps.clock), errorMessage: null });
      return true;
    }
    return false;
  }

  /**
   * The chunk through the kind's batch write, in a savepoint: when it fails as a whole, nothing of
   * it stays and every item goes through `handle` (which then meets the same error on its own).
   */
  private async applyMany(
    tx: Stores,
    ctx: RequestContext,
    many: NonNullable<JobKind['many']>,
    items: ReadonlyArray<{ payload: unknown }>,
    entries: NewAuditRow[],
  ): Promise<ReadonlyArray<AppliedItem | LecternError | undefined>> {
    try {
      const held = await tx.savepoint((sp) =>
        this.deps.audit.holding(sp, () =>
          many(
            sp,
            ctx,
            items.map((item) => item.payload),
          ),
        ),
      );
      entries.push(...held.entries);
      return held.result;
    } catch {
      return [];
    }
  }

  /**
   * Who a chunk acts as, read in the chunk's transaction: the submitter with the rights they have
   * now, or why they may no longer run a job that needs `scope` (submitter-authority.ts).
   */
  async authorityFor(tx: Stores, stored: StoredActor, requestId: string, scope: Scope): Promise<ChunkAuthority> {
    try {
      return { ctx: { actor: await this.actingActor(tx, stored, scope), requestId } };
    } catch (error) {
      if (!isLecternError(error)) throw error;
      return { refusal: error };
    }
  }

  private async actingActor(tx: Stores, stored: StoredActor, scope: Scope): Promise<Actor> {
    if (stored.kind === 'system') return systemActor;
    return actingSubmitter(stored, await this.submitterState(tx, stored), nowIso(this.deps.clock), scope);
  }

  private async submitterState(tx: Stores, stored: Extract<StoredActor, { kind: 'user' }>): Promise<SubmitterState | undefined> {
    if (stored.tokenId !== undefined) {
      const credentials = await tx.tokens.findCredentialsById(stored.tokenId);
      return (
        credentials && {
          role: credentials.user.role,
          isActive: credentials.user.isActive,
          scopes: credentials.scopes,
          expiresAt: credentials.expiresAt,
        }
      );
    }
    const user = await tx.users.findById(stored.userId);
    return user && { role: user.view.role, isActive: user.view.is_active, scopes: stored.scopes, expiresAt: null };
  }

  private finish(jobId: number, status: 'completed' | 'failed', errorMessage: string | null): Promise<void> {
    return this.deps.storage.jobs.setStatus(jobId, status, { at: nowIso(this.deps.clock), errorMessage });
  }
}
