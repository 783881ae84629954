/**
 * One import run: streams the file, checks and resolves each row, sends the sendable ones as bulk
 * jobs of the route's item limit, reads every job's per-item results, and writes one report line
 * per data row, in file order.
 *
 * A few jobs are kept queued on the server so it always has work while the importer reads the
 * oldest one; only the rows of those jobs are held in memory.
 */
import { StopError, sleepUnless, type ApiAnswer, type ImportApiClient } from './api-client.ts';
import { openRecords, type FileScan } from './csv-source.ts';
import type { ImportKind } from './import-kinds.ts';
import { outcomeOfItem, type JobItem } from './item-outcome.ts';
import type { Progress } from './progress.ts';
import type { ReportWriter, RowOutcome } from './report-writer.ts';
import { checkRow } from './row-check.ts';
import { SeenRows } from './seen-rows.ts';
import { UserDirectory, type DirectoryUser } from './user-directory.ts';

export interface ImportRun {
  kind: ImportKind;
  file: string;
  scan: FileScan;
  report: ReportWriter;
  client: ImportApiClient;
  dryRun: boolean;
  /** users: PATCH an existing user's differing name/role/employee_id */
  update: boolean;
  progress: Progress;
  /** aborted on the first SIGINT/SIGTERM: nothing more is sent; jobs already sent are still read */
  stopSending: AbortSignal;
  /** aborted on the second: jobs already sent are no longer waited for */
  stopWaiting: AbortSignal;
}

export interface ImportSummary {
  total: number;
  created: number;
  existing: number;
  updated: number;
  valid: number;
  failed: number;
  /** why the run stopped before the end of the file, if it did */
  stopped: string | null;
}

interface PendingRow {
  row: number;
  cells: string[];
  outcome?: RowOutcome;
  item?: Record<string, unknown>;
}

interface Chunk {
  rows: PendingRow[];
  /** the rows whose items the job holds, in item order */
  sent: PendingRow[];
  jobId?: string;
}

/** a chunk also closes after this many rows, so a long run of failing rows is not held in memory */
const MAX_ROWS_PER_CHUNK = 1000;
const ITEMS_PAGE_SIZE = 100;
const POLL_DELAYS_MS = [50, 100, 200, 300, 500, 750, 1000];
/** jobs submitted and not yet read: enough to keep the server busy while the oldest is read */
const JOBS_QUEUED = 3;

const notSent = (why: string): RowOutcome => ({ status: 'failed', error_code: 'not_sent', error_message: why });

export async function runImport(run: ImportRun): Promise<ImportSummary> {
  return new Importer(run).start();
}

class Importer {
  private readonly summary: ImportSummary = { total: 0, created: 0, existing: 0, updated: 0, valid: 0, failed: 0, stopped: null };
  private readonly queued: Chunk[] = [];
  private readonly seen = new SeenRows();
  private directory: UserDirectory | undefined;

  constructor(private readonly run: ImportRun) {}

  async start(): Promise<ImportSummary> {
    const { kind } = this.run;
    let chunk = newChunk();
    let header = true;
    let row = 0;
    for await (const cells of openRecords(this.run.file)) {
      if (header) {
        header = false;
        continue;
      }
      const pending: PendingRow = { row: ++row, cells };
      await this.prepare(pending);
      chunk.rows.push(pending);
      if (pending.item) chunk.sent.push(pending);
      if (chunk.sent.length === kind.maxItems || chunk.rows.length >= MAX_ROWS_PER_CHUNK) {
        await this.enqueue(chunk);
        chunk = newChunk();
      }
    }
    await this.enqueue(chunk);
    while (this.queued.length > 0) await this.settleOldest();
    return this.summary;
  }

  private stopReason(): string | null {
    if (this.summary.stopped) return this.summary.stopped;
    if (this.run.stopSending.aborted) return 'The import was interrupted before this row was sent.';
    return null;
  }

  /** Decides the row's outcome locally, or gives it the item to send. */
  private async prepare(pending: PendingRow): Promise<void> {
    const stopped = this.stopReason();
    if (stopped) {
      pending.outcome = notSent(stopped);
      return;
    }
    try {
      pending.outcome = await this.check(pending);
    } catch (error) {
      if (!(error instanceof StopError)) throw error;
      this.summary.stopped = error.message;
      pending.outcome = notSent(error.message);
      pending.item = undefined;
    }
  }

  private async check(pending: PendingRow): Promise<RowOutcome | undefined> {
    const { kind, scan } = this.run;
    const checked = checkRow(kind, scan.columns, pending.cells);
    if (!checked.ok) return { status: 'failed', error_code: checked.code, error_message: checked.message };

    let item = checked.item;
    if (checked.user && 'email' in checked.user) {
      const user = await (await this.users()).find(checked.user.email);
      if (!user) return { status: 'failed', error_code: 'unknown_user', error_message: `No user has the email ${checked.user.email}.` };
      item = { user_id: user.public_id, ...item };
    } else if (checked.user) {
      item = { user_id: checked.user.id, ...item };
    }

    const identity = kind.identity.map((field) => String(item[field]).toLowerCase()).join('\u0000');
    const first = this.seen.firstOrRemember(identity, pending.row);
    if (first !== undefined) {
      return { status: 'failed', error_code: 'duplicate_row', error_message: `Row ${first} has the same ${kind.identity.join(' and ')}.` };
    }

    if (this.run.dryRun) return { status: 'valid' };
    if (this.run.update && kind.updatable) {
      const existing = await (await this.users()).find(String(item.email));
      if (existing) return this.updateUser(existing, item, kind.updatable);
    }
    pending.item = item;
    return undefined;
  }

  private async users(): Promise<UserDirectory> {
    if (!this.directory) {
      const { kind, scan } = this.run;
      const distinct = kind.userReference ? scan.distinctEmails : scan.total;
      this.directory = await UserDirectory.open(this.run.client, distinct);
    }
    return this.directory;
  }

  /** `--update`: PATCH only the fields the row gives and that differ. */
  private async updateUser(existing: DirectoryUser, item: Record<string, unknown>, fields: readonly string[]): Promise<RowOutcome> {
    const changes: Record<string, unknown> = {};
    for (const field of fields) {
      if (item[field] !== undefined && item[field] !== existing[field as keyof DirectoryUser]) changes[field] = item[field];
    }
    if (Object.keys(changes).length === 0) return { status: 'existing', public_id: existing.public_id };
    const answer = await this.run.client.patch(`/api/v2/users/${existing.public_id}/`, changes);
    if (answer.status === 200) return { status: 'updated', public_id: existing.public_id };
    return failedAnswer(answer, existing.public_id);
  }

  /** Submits the chunk's job and queues it; settles the oldest queued chunk when JOBS_QUEUED are waiting. */
  private async enqueue(chunk: Chunk): Promise<void> {
    if (chunk.rows.length === 0) return;
    if (chunk.sent.length > 0) await this.submit(chunk);
    this.queued.push(chunk);
    while (this.queued.length > JOBS_QUEUED) await this.settleOldest();
  }

  private async submit(chunk: Chunk): Promise<void> {
    const { kind, client } = this.run;
    const stopped = this.stopReason();
    if (stopped) return settleAll(chunk.sent, notSent(stopped));
    try {
      const answer = await client.post(kind.bulkPath, { [kind.name]: chunk.sent.map((pending) => pending.item) });
      if (answer.status === 202) chunk.jobId = answer.body.id;
      else settleAll(chunk.sent, failedAnswer(answer));
    } catch (error) {
      if (!(error instanceof StopError)) throw error;
      this.summary.stopped = error.message;
      settleAll(chunk.sent, notSent(error.message));
    }
  }

  private async settleOldest(): Promise<void> {
    const chunk = this.queued.shift()!;
    if (chunk.jobId) await this.readJob(chunk, chunk.jobId);
    for (const pending of chunk.rows) await this.write(pending);
  }

  /**
   * Gives each sent row its item's outcome. The items route lists the items processed so far, so
   * when the first page already counts them all the job is done and needs no status poll: the
   * common case, since the importer comes back to a job only after submitting the next ones.
   */
  private async readJob(chunk: Chunk, jobId: string): Promise<void> {
    const { kind } = this.run;
    const unconfirmed = (why: string): RowOutcome => ({
      status: 'failed',
      error_code: 'not_confirmed',
      error_message: `Sent in bulk job ${jobId}, whose outcome was not read: ${why} A re-run settles it safely.`,
    });
    try {
      let first = await this.itemsPage(jobId, 1);
      let jobError: string | null = null;
      if (first.meta.total_count < chunk.sent.length) {
        const job = await this.waitForJob(jobId);
        if (!job) return settleAll(chunk.sent, unconfirmed('the import was interrupted.'));
        jobError = job.error_message;
        first = await this.itemsPage(jobId, 1);
      }
      let page = first;
      for (let number = 1; ;) {
        for (const item of page.data) {
          const pending = chunk.sent[item.index];
          if (pending && !pending.outcome) pending.outcome = outcomeOfItem(kind, item);
        }
        if (number * ITEMS_PAGE_SIZE >= page.meta.total_count || page.data.length === 0) break;
        page = await this.itemsPage(jobId, ++number);
      }
      settleAll(chunk.sent, {
        status: 'failed',
        error_code: 'job_failed',
        error_message: jobError ?? 'The job ended without an outcome for this item.',
      });
    } catch (error) {
      if (!(error instanceof StopError)) throw error;
      this.summary.stopped ??= error.message;
      settleAll(chunk.sent, unconfirmed(error.message));
    }
  }

  private async itemsPage(jobId: string, page: number): Promise<{ data: JobItem[]; meta: { total_count: number } }> {
    const answer = await this.run.client.get(`${this.run.kind.bulkPath}${jobId}/items/?page=${page}&page_size=${ITEMS_PAGE_SIZE}`);
    if (answer.status !== 200) throw new StopError(`reading the items of bulk job ${jobId} answered ${answer.status}`);
    return answer.body;
  }

  /** The finished job, or undefined when told to stop waiting. */
  private async waitForJob(jobId: string): Promise<{ status: string; error_message: string | null } | undefined> {
    const { kind, client, stopWaiting } = this.run;
    for (let attempt = 0; ; attempt++) {
      if (stopWaiting.aborted) return undefined;
      const answer = await client.get(`${kind.bulkPath}${jobId}/`);
      if (answer.status !== 200) throw new StopError(`reading bulk job ${jobId} answered ${answer.status}`);
      if (answer.body.status === 'completed' || answer.body.status === 'failed') return answer.body;
      await sleepUnless(POLL_DELAYS_MS[Math.min(attempt, POLL_DELAYS_MS.length - 1)]!, stopWaiting);
    }
  }

  private async write(pending: PendingRow): Promise<void> {
    const outcome = pending.outcome ?? notSent('The row was not sent.');
    this.summary.total++;
    this.summary[outcome.status]++;
    await this.run.report.writeRow(pending.row, outcome, pending.cells);
    this.run.progress.advance(1);
  }
}

const newChunk = (): Chunk => ({ rows: [], sent: [] });

/** Gives every row without an outcome this one. */
function settleAll(rows: PendingRow[], outcome: RowOutcome): void {
  for (const pending of rows) pending.outcome ??= outcome;
}

function failedAnswer(answer: Pick<ApiAnswer, 'status' | 'body'>, publicId?: string): RowOutcome {
  const error = answer.body?.error;
  const fields = error?.field_errors
    ? Object.entries(error.field_errors as Record<string, string[]>)
        .map(([field, messages]) => ` ${field}: ${messages.join(' ')}`)
        .join('')
    : '';
  return {
    status: 'failed',
    public_id: publicId ?? null,
    error_code: error?.code ?? `http_${answer.status}`,
    error_message: `${error?.message ?? `The server answered ${answer.status}.`}${fields}`,
  };
}
