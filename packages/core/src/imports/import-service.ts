/**
 * Server-side CSV imports (docs/imports.md): the upload is checked and stored row by row as it
 * streams in, then a job of the job engine processes it in chunks, each chunk one transaction with
 * the rows' writes, their outcomes and their webhook events; the report is read back in row order.
 */
import { actorUserId, authorize, isAdmin, permits, type RequestContext } from '../auth/actor.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import { storeActor } from '../jobs/job.ts';
import type { StagedRow } from '../ports/import-store.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { csvLine, csvLines } from '../shared/csv-writer.ts';
import { badRequest, LecternError, notFound } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { CsvFormatError, FIELD_MARGIN, MAX_RECORD_BYTES, maxFieldsFor, readCsvRecords } from './csv-records.ts';
import { HeaderError, mapColumns } from './import-columns.ts';
import { IMPORT_KINDS, importKinds, isImportKind, type ImportKindName } from './import-kinds.ts';
import { importListSpec, isFinished, type Import, type ImportRecord } from './import.ts';
import { processRows, refusedRows, type KindWriters } from './import-rows.ts';

export const IMPORTS_JOB = 'imports';
/** Rows per chunk transaction: large enough that per-transaction costs vanish, small enough to interleave with requests. */
export const IMPORT_CHUNK_ROWS = 5000;
/** Rows stored per transaction while the file is received. */
const STAGE_BATCH_ROWS = 2000;
/**
 * ... or fewer, once their cells hold this many characters: rows near the record limit (1 MiB)
 * would otherwise be held two thousand at a time.
 */
const STAGE_BATCH_CHARS = 4 * 1024 * 1024;
/**
 * Rows read, checked and written together within a chunk (one email lookup, one duplicate lookup,
 * one batch write): many where the kind writes them as a batch; few where each row is written on
 * its own, so that a batch on PostgreSQL, at several round trips a row, stays well under a second.
 */
const ROWS_PER_BATCH = { batched: 500, oneByOne: 50 };
/**
 * A chunk stops taking batches after this long, so the writers waiting behind it are not held up;
 * it stops sooner, after the batch in progress, when another writer waits for it
 * (`writersWaiting`: a request's write, on PostgreSQL any server's).
 */
const CHUNK_BUDGET_MS = 250;
/**
 * How many of an import's chunks in a row may give way to a request's write in their first batch
 * (undone, nothing of the chunk's rows done). A request that arrived during a first batch used to
 * wait for the whole batch (tens of milliseconds); the bound keeps the import going when requests
 * write one after another without a pause: the chunk after that many runs its first batch whatever
 * waits.
 */
const FIRST_BATCHES_GIVING_WAY = 3;
/**
 * For this long after a chunk of an import met a request's write (it gave way to it, or stopped
 * between batches for it), its chunks run one batch each where a commit takes longer the more the
 * chunk wrote (`commitsGrowWithWrites`: SQLite). A write that arrives mid-chunk waits for the
 * chunk's commit, and on SQLite that commit writes out every page the chunk changed: 7 ms at the
 * median after a full chunk (CHUNK_BUDGET_MS), measured during an import of 200 000 assignments
 * while a client renamed a user five times a second. Committed after each batch, a chunk leaves a
 * write one batch's pages to wait for. An import that meets no writes keeps its long chunks, and so
 * the per-chunk costs (its own bookkeeping, a commit of pages that later batches change again)
 * stay as rare as they were. On PostgreSQL a commit costs about the same after one batch as after
 * many, and one-batch chunks only added their round trips: the import ran a third slower while
 * the writes came, and the writes waited no less.
 */
const WRITES_RECENT_MS = 1000;
/** An upload still receiving after this long was left by a process that died mid-upload. */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;
export const REPORT_COLUMNS = ['row', 'status', 'public_id', 'error_code', 'error_message'] as const;
const REPORT_PAGE_ROWS = 2000;

export interface ImportRequest {
  kind?: string;
  dry_run?: string;
  update?: string;
  filename?: string | null;
}

const unprocessable = (message: string) => new LecternError('validation_error', message, { nonFieldErrors: [message] });

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest(`Query parameter '${name}' must be true or false.`);
}

export class ImportService {
  /**
   * Per import (by its job's id), how its chunks met requests' writes; in memory, since it only
   * decides how often a chunk yields and how long it runs (a restart begins again at none).
   */
  private readonly writesMet = new Map<number, WritesMet>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly jobs: JobEngine,
    private readonly writers: KindWriters,
  ) {
    jobs.register({
      name: IMPORTS_JOB,
      maxItems: 0,
      // each chunk checks the import's own kind's scope; every import needs one of these
      scope: 'assignments:write',
      handle: () => {
        throw new Error('an import runs its rows by chunk');
      },
      runChunk: (tx, job) => this.runChunk(tx, job.id, job.actor),
      beforeChunk: async () => this.deps.storage.imports.analyzeGrownTables(),
      failed: async (jobId, message) => {
        this.writesMet.delete(jobId);
        const record = await this.deps.storage.imports.findByJobId(jobId);
        if (record)
          await this.deps.storage.imports.setStatus(record.id, 'failed', {
            completedAt: nowIso(this.deps.clock),
            error: { code: 'internal_error', message },
          });
      },
    });
  }

  /**
   * `POST /imports/?kind=…`: checks the kind, the scope and the header before storing anything,
   * stores the rows as they stream in, then hands the import to the job engine. A file that turns
   * out not to be CSV part-way is forgotten again and refused.
   */
  async submit(ctx: RequestContext, request: ImportRequest, body: AsyncIterable<Buffer | Uint8Array>): Promise<Import> {
    const kindName = readKind(request.kind);
    const kind = IMPORT_KINDS[kindName];
    authorize(ctx.actor, kind.scope);
    const dryRun = flag('dry_run', request.dry_run);
    const update = flag('update', request.update);
    const storage = this.deps.storage;
    const now = nowIso(this.deps.clock);
    // writes of the request thread go through transactions, which take their turn at SQLite's lock
    // with the background thread's (docs/scaling.md); uploads no one submitted are nobody's, and
    // an import is nobody else's until it is submitted, so neither needs a turn among PostgreSQL's
    const ownRows = { withoutWriteLock: true };
    await storage.transaction(
      (tx) => tx.imports.discardAbandoned(new Date(this.deps.clock.now().getTime() - ABANDONED_UPLOAD_MS).toISOString()),
      ownRows,
    );

    const records = readCsvRecords(body, MAX_RECORD_BYTES, maxFieldsFor(kind.columns.length))[Symbol.asyncIterator]();
    let importId: number | undefined;
    try {
      const first = await records.next();
      if (first.done) throw unprocessable('The file is empty: it needs a header row.');
      if (first.value.badFields) throw unprocessable('The header row is not valid UTF-8.');
      if (first.value.tooLong) {
        throw unprocessable(
          `The header row is longer than the limit of ${MAX_RECORD_BYTES} bytes, or has more than ${FIELD_MARGIN} fields beyond the kind's columns.`,
        );
      }
      let columns;
      try {
        columns = mapColumns(kind, first.value.cells);
      } catch (error) {
        if (error instanceof HeaderError) throw unprocessable(`The header is not usable: ${error.message}.`);
        throw error;
      }
      importId = await storage.transaction(
        (tx) =>
          tx.imports.insert({
            publicId: this.deps.ids.uuid(),
            kind: kindName,
            dryRun,
            update,
            filename: request.filename ?? null,
            header: columns.header,
            actor: storeActor(ctx.actor),
            createdById: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
            requestId: ctx.requestId,
            createdAt: now,
          }),
        ownRows,
      );
      let total = 0;
      let batch: StagedRow[] = [];
      let batchBytes = 0;
      const id = importId;
      const flush = async () => {
        const rows = batch;
        batch = [];
        batchBytes = 0;
        if (rows.length > 0) await storage.transaction((tx) => tx.imports.stageRows(id, rows), ownRows);
        // an upload already received whole is parsed and stored in promises that resolve at once:
        // without a turn of the event loop here, other requests would wait for the whole file
        await new Promise((resolve) => setImmediate(resolve));
      };
      for (let next = await records.next(); !next.done; next = await records.next()) {
        batch.push({
          row: ++total,
          cells: next.value.cells,
          badFields: next.value.badFields ?? null,
          tooLong: next.value.tooLong ?? false,
        });
        for (const cell of next.value.cells) batchBytes += cell.length;
        if (batch.length >= STAGE_BATCH_ROWS || batchBytes >= STAGE_BATCH_CHARS) await flush();
      }
      await flush();
      const job = await storage.transaction(async (tx) => {
        const stored = await this.jobs.enqueue(tx, ctx, IMPORTS_JOB);
        await tx.imports.submitted(id, stored.id, total);
        return stored;
      });
      this.jobs.wake(job.id);
      return (await storage.imports.findById(id))!.view;
    } catch (error) {
      await records.return?.(undefined);
      if (importId !== undefined) await storage.transaction((tx) => tx.imports.discard(importId!));
      if (error instanceof CsvFormatError) throw unprocessable(`The file is not usable: ${error.message}.`);
      throw error;
    }
  }

  /** Newest first; admins see every import, anyone else their own, of the kinds their token may read. */
  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<Import>> {
    const query = parseListQuery(importListSpec, params);
    const readable = importKinds.filter((kind) => permits(ctx.actor, IMPORT_KINDS[kind].readScope));
    if (readable.length === 0) authorize(ctx.actor, IMPORT_KINDS.users.readScope);
    const page = await this.deps.storage.imports.list(query, seesAll(ctx.actor) ? null : ownerId(ctx.actor), readable);
    return toListResult(query, page, (record) => record.view);
  }

  async get(ctx: RequestContext, publicId: string): Promise<Import> {
    return (await this.requireVisible(this.deps.storage, ctx, publicId, 'read')).view;
  }

  /** Rows not yet processed fail as `cancelled`; a finished import is answered as it is. */
  async cancel(ctx: RequestContext, publicId: string): Promise<Import> {
    await this.deps.storage.transaction(async (tx) => {
      const record = await this.requireVisible(tx, ctx, publicId, 'write');
      if (isFinished(record.view.status)) return;
      await tx.imports.setStatus(record.id, 'cancelled', { completedAt: nowIso(this.deps.clock) });
      await tx.imports.cancelRemaining(record.id, 'The import was cancelled before this row was processed.');
    });
    return this.get(ctx, publicId);
  }

  /**
   * The report of the rows processed so far, in row order, as CSV text in pieces (a page of rows at
   * a time): the status columns, then the input's own cells. Cells a spreadsheet would run as
   * formulas are written with a leading `'` (shared/csv-writer.ts).
   */
  async report(ctx: RequestContext, publicId: string): Promise<{ filename: string; lines: AsyncIterable<string> }> {
    const record = await this.requireVisible(this.deps.storage, ctx, publicId, 'read');
    const storage = this.deps.storage;
    async function* lines(): AsyncGenerator<string> {
      yield csvLine([...REPORT_COLUMNS, ...record.header]);
      for (let after = 0; ;) {
        const rows = await storage.imports.reportRows(record.id, after, REPORT_PAGE_ROWS);
        if (rows.length === 0) return;
        yield csvLines(rows.map((row) => [row.row, row.status, row.publicId, row.errorCode, row.errorMessage, ...row.cells]));
        after = rows[rows.length - 1]!.row;
      }
    }
    return { filename: `import-${record.view.id}-report.csv`, lines: lines() };
  }

  private async requireVisible(stores: Stores, ctx: RequestContext, publicId: string, access: 'read' | 'write'): Promise<ImportRecord> {
    const record = isUuid(publicId) ? await stores.imports.findByPublicId(publicId) : undefined;
    if (!record || !(seesAll(ctx.actor) || record.createdById === ownerId(ctx.actor))) throw notFound('Import');
    const kind = IMPORT_KINDS[record.kind];
    authorize(ctx.actor, access === 'read' ? kind.readScope : kind.scope);
    return record;
  }

  /** `work` within `tx`, stopped and undone (undefined) when a request's write comes to wait for it. */
  private giveWay<T>(tx: Stores, work: (stores: Stores) => Promise<T>): Promise<{ value: T } | undefined> {
    const storage = this.deps.storage;
    return storage.giveWayToRequests ? storage.giveWayToRequests(tx, work) : work(tx).then((value) => ({ value }));
  }

  /** One chunk of the import's rows; true when none are left (or it was cancelled). */
  private async runChunk(tx: Stores, jobId: number, actor: ImportRecord['actor']): Promise<boolean> {
    const record = await tx.imports.findByJobId(jobId);
    if (!record || isFinished(record.view.status)) {
      this.writesMet.delete(jobId);
      return true;
    }
    const now = nowIso(this.deps.clock);
    if (record.view.status === 'pending') await tx.imports.setStatus(record.id, 'running', { startedAt: now });
    const authority = await this.jobs.authorityFor(tx, actor, record.requestId, IMPORT_KINDS[record.kind].scope);
    await tx.imports.preferIndexLookups();
    // rows in batches until the chunk has IMPORT_CHUNK_ROWS or has held the write lock for
    // CHUNK_BUDGET_MS: on PostgreSQL a row costs several round trips, and other writers wait
    const started = performance.now();
    const othersWait = async () => (await this.deps.storage.writersWaiting?.(tx)) === true;
    let doneThrough = record.doneThrough;
    const writers = this.writers[record.kind];
    const batchRows = writers.many ? ROWS_PER_BATCH.batched : ROWS_PER_BATCH.oneByOne;
    // this chunk's copy, changed as it meets writes and kept for the import's next chunk
    const met: WritesMet = { ...(this.writesMet.get(jobId) ?? { firstBatchesGivenWay: 0, lastAt: -Infinity }) };
    // a chunk always begins a batch; only FIRST_BATCHES_GIVING_WAY of them in a row may give way in
    // it, so that requests writing one after another cannot stop the import
    const oneBatch = this.deps.storage.commitsGrowWithWrites?.() === true && performance.now() - met.lastAt < WRITES_RECENT_MS;
    const mayGoOn = async (done: number) => {
      if (done === 0) return true;
      if (oneBatch || performance.now() - started >= CHUNK_BUDGET_MS) return false;
      if (!(await othersWait())) return true;
      met.lastAt = performance.now();
      return false;
    };
    const batch = async (stores: Stores) => {
      const rows = await stores.imports.rowsAfter(record.id, doneThrough, batchRows);
      if (rows.length === 0) return rows;
      const outcomes =
        'refusal' in authority ? refusedRows(rows, authority.refusal) : await processRows(stores, authority.ctx, record, rows, writers);
      await stores.imports.recordOutcomes(record.id, outcomes);
      return rows;
    };
    for (let done = 0; done < IMPORT_CHUNK_ROWS && (await mayGoOn(done));) {
      // a batch stops part-way, undone, for a request's write that comes to wait for it, which then
      // waits for one statement rather than the whole batch; a first batch only so many times in a row
      const first = done === 0;
      const yields = !first || met.firstBatchesGivenWay < FIRST_BATCHES_GIVING_WAY;
      const taken = yields ? await this.giveWay(tx, batch) : { value: await batch(tx) };
      if (first) met.firstBatchesGivenWay = taken === undefined ? met.firstBatchesGivenWay + 1 : 0;
      if (taken === undefined) {
        met.lastAt = performance.now();
        break;
      }
      const rows = taken.value;
      if (rows.length === 0) break;
      doneThrough = rows[rows.length - 1]!.row;
      done += rows.length;
      if (rows.length < batchRows) break;
    }
    if (doneThrough < (record.view.total_rows ?? 0)) {
      this.writesMet.set(jobId, met);
      return false;
    }
    this.writesMet.delete(jobId);
    await tx.imports.setStatus(record.id, 'completed', { completedAt: nowIso(this.deps.clock) });
    return true;
  }
}

/** How an import's chunks met requests' writes (ImportService.writesMet). */
interface WritesMet {
  /** how many chunks in a row gave way in their first batch (at most FIRST_BATCHES_GIVING_WAY) */
  firstBatchesGivenWay: number;
  /** when a chunk last gave way or stopped for a write (performance.now()), -Infinity for never */
  lastAt: number;
}

function readKind(kind: string | undefined): ImportKindName {
  if (kind === undefined || kind === '') throw badRequest(`Query parameter 'kind' is required: one of ${importKinds.join(', ')}.`);
  if (!isImportKind(kind)) throw badRequest(`Query parameter 'kind' must be one of ${importKinds.join(', ')}.`);
  return kind;
}

const seesAll = isAdmin;
const ownerId = actorUserId;
