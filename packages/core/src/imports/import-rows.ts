/**
 * One chunk of an import's rows, in the chunk's transaction: each row is checked with the shared
 * row rules, its user email resolved (one query for the chunk), compared with the rows before it
 * (duplicate_row, one query for the chunk), then written. New rows go first to the kind's batch
 * write (users, assignments and enrollments each have one: a few multi-row statements a batch);
 * the rows it leaves, and every row of a kind without one, go through the kind's bulk-job item
 * write — the same code, events and audit entries as `POST /<kind>/bulk/` — each in a savepoint.
 */
import type { z } from 'zod';
import { authorize, type RequestContext } from '../auth/actor.ts';
import { itemErrorMessage } from '../jobs/job-item-rules.ts';
import { ItemFailure, type AppliedItem } from '../jobs/job.ts';
import type { JobKind } from '../jobs/job-engine.ts';
import type { RowOutcome, StagedRow } from '../ports/import-store.ts';
import type { Stores } from '../ports/storage.ts';
import { isLecternError, type LecternError } from '../shared/errors.ts';
import { foldCase } from '../shared/fold-case.ts';
import { parseInput } from '../shared/validation.ts';
import { updateUserInput } from '../users/user.ts';
import type { ImportRecord } from './import.ts';
import { mapColumns } from './import-columns.ts';
import { IMPORT_KINDS, type ImportItems, type ImportKindName } from './import-kinds.ts';
import { checkRow, rowIdentity, unreadRowFailure } from './row-check.ts';

export interface RowWriters<K extends ImportKindName = ImportKindName> {
  /** the kind's bulk-job item write */
  item: JobKind['handle'];
  /**
   * The kind's batch write, where it has one: the same rules and writes as `item` for many new
   * items at once, answering each item it wrote or found, or the LecternError `item` would fail it
   * with, and undefined for those it leaves to `item` (anything beyond the plain insert).
   */
  many?(
    tx: Stores,
    ctx: RequestContext,
    items: ReadonlyArray<ImportItems[K]>,
    /** the users the chunk looked up by email, public id to internal id: not looked up again */
    knownUsers: ReadonlyMap<string, number>,
  ): Promise<ReadonlyArray<AppliedItem | LecternError | undefined>>;
  /** `update=true` on a users import: the PATCH rules and write, in the caller's transaction */
  updateUser(tx: Stores, ctx: RequestContext, publicId: string, changes: z.output<typeof updateUserInput>): Promise<unknown>;
}

/** Each kind's writers, each taking its own kind's items. */
export type KindWriters = { [K in ImportKindName]: RowWriters<K> };

const failed = (
  row: number,
  code: string,
  message: string,
  identity: string | null = null,
  publicId: string | null = null,
): RowOutcome => ({
  row,
  status: 'failed',
  publicId,
  errorCode: code,
  errorMessage: message,
  identity,
});

const done = (row: { row: number; identity: string }, status: RowOutcome['status'], publicId: string): RowOutcome => ({
  row: row.row,
  status,
  publicId,
  errorCode: null,
  errorMessage: null,
  identity: row.identity,
});

/** Every row of the chunk fails with why the submitter may no longer run the import. */
export const refusedRows = (rows: readonly StagedRow[], refusal: LecternError): RowOutcome[] =>
  rows.map((row) => failed(row.row, refusal.code, itemErrorMessage(refusal)));

interface Checked {
  row: number;
  item: Record<string, unknown>;
  email: string | null;
}

/** Thrown to undo a dry run's writes: never seen outside `processRows`. */
const DRY_RUN_UNDONE = Symbol('dry run undone');

/**
 * The outcomes of a chunk's rows. A dry run runs the real run's every check and write in a
 * savepoint that is then rolled back, so that it answers what the real run would for every row
 * (a content item that does not exist or is hidden, a learner naming someone else, a taken email
 * with `update`), and writes nothing: each row the real run would write reads `valid`.
 */
export async function processRows(
  tx: Stores,
  ctx: RequestContext,
  record: ImportRecord,
  rows: readonly StagedRow[],
  writers: RowWriters,
): Promise<RowOutcome[]> {
  const chunk: Chunk = { ctx, record, rows, writers };
  if (!record.view.dry_run) return writeRows(tx, chunk);
  let outcomes: RowOutcome[] = [];
  try {
    await tx.savepoint(async (sp) => {
      outcomes = await writeRows(sp, chunk);
      throw DRY_RUN_UNDONE;
    });
  } catch (error) {
    if (error !== DRY_RUN_UNDONE) throw error;
  }
  return outcomes.map((outcome) => (outcome.status === 'failed' ? outcome : { ...outcome, status: 'valid', publicId: null }));
}

/**
 * Why a caller may not look users up by email, or undefined when it may: resolving an email is a
 * lookup, and a report that told a registered email from an unknown one would let anyone without
 * `users:read` probe who is registered. Such a caller may name only itself.
 */
function emailLookupRefusal(ctx: RequestContext): LecternError | undefined {
  try {
    authorize(ctx.actor, 'users:read');
    return undefined;
  } catch (error) {
    if (isLecternError(error)) return error;
    throw error;
  }
}

/** A chunk's rows and what writing them reads, but the transaction: a dry run writes them in a savepoint. */
interface Chunk {
  ctx: RequestContext;
  record: ImportRecord;
  rows: readonly StagedRow[];
  writers: RowWriters;
}

async function writeRows(tx: Stores, { ctx, record, rows, writers }: Chunk): Promise<RowOutcome[]> {
  const kind = IMPORT_KINDS[record.kind];
  const columns = mapColumns(kind, record.header);
  const outcomes = new Map<number, RowOutcome>();
  const checked: Checked[] = [];
  for (const staged of rows) {
    const unread = unreadRowFailure(staged, columns.header);
    if (unread) {
      outcomes.set(staged.row, failed(staged.row, unread.code, unread.message));
      continue;
    }
    const check = checkRow(kind, columns, staged.cells);
    if (!check.ok) outcomes.set(staged.row, failed(staged.row, check.code, check.message));
    else if (check.user && 'email' in check.user) checked.push({ row: staged.row, item: check.item, email: check.user.email });
    else checked.push({ row: staged.row, item: check.user ? { user_id: check.user.id, ...check.item } : check.item, email: null });
  }

  // one query for the chunk's emails: the users rows name, or the users a users file describes (an
  // existing one is `existing`, or compared for `update`, without a write being tried for it)
  const updating = record.view.update && kind.updatable !== undefined;
  const describesUsers = kind.name === 'users';
  const emails = new Set<string>();
  for (const row of checked) {
    if (row.email !== null) emails.add(row.email);
    else if (describesUsers) emails.add(String(row.item.email));
  }
  const users = emails.size > 0 ? await tx.users.byEmails([...emails]) : new Map();

  const lookupRefusal = emailLookupRefusal(ctx);
  const identified: Array<Checked & { identity: string }> = [];
  for (const row of checked) {
    if (row.email !== null) {
      const user = users.get(foldCase(row.email));
      // one answer for a registered email and an unknown one, unless the caller may list users
      if (lookupRefusal && (!user || ctx.actor.kind !== 'user' || user.publicId !== ctx.actor.publicId)) {
        const message = `${row.email} is not your email, and looking other users up by email needs the scope 'users:read'.`;
        outcomes.set(row.row, failed(row.row, lookupRefusal.code, message));
        continue;
      }
      if (!user) {
        outcomes.set(row.row, failed(row.row, 'unknown_user', `No user has the email ${row.email}.`));
        continue;
      }
      row.item = { user_id: user.publicId, ...row.item };
    }
    identified.push({ ...row, identity: rowIdentity(kind, row.item) });
  }

  // a row about a resource an earlier row already named (in an earlier chunk, or this one) is a duplicate
  const firstRows = await tx.imports.firstRowsOf(record.id, [...new Set(identified.map((row) => row.identity))]);
  const handle = writers.item;
  const fresh: Array<Checked & { identity: string }> = [];
  for (const row of identified) {
    const first = firstRows.get(row.identity);
    if (first !== undefined && first < row.row) {
      outcomes.set(row.row, failed(row.row, 'duplicate_row', `Row ${first} has the same ${kind.identity.join(' and ')}.`, row.identity));
      continue;
    }
    firstRows.set(row.identity, row.row);
    const existing = describesUsers ? users.get(foldCase(String(row.item.email))) : undefined;
    if (existing && !updating) {
      // what the bulk item answers for a taken email (`duplicate`), reported as a re-run must be
      outcomes.set(row.row, {
        row: row.row,
        status: 'existing',
        publicId: existing.publicId,
        errorCode: null,
        errorMessage: null,
        identity: row.identity,
      });
      continue;
    }
    if (existing) outcomes.set(row.row, await writeRow(tx, ctx, row, existing));
    else fresh.push(row);
  }

  // new rows in one batch where the kind can (a few statements for all); what the batch leaves,
  // or all of them when it fails (a concurrent writer took an email), one by one in savepoints
  const answers = writers.many && fresh.length > 0 ? await writeMany(writers.many, fresh) : [];
  for (const [i, row] of fresh.entries()) {
    const answer = answers[i];
    if (answer === undefined) outcomes.set(row.row, await writeRow(tx, ctx, row, undefined));
    else if (isLecternError(answer)) outcomes.set(row.row, itemFailed(row, answer));
    else outcomes.set(row.row, done(row, answer.created ? 'created' : 'existing', answer.publicId));
  }
  return rows.map((row) => outcomes.get(row.row)!);

  async function writeMany(many: NonNullable<RowWriters['many']>, batch: ReadonlyArray<Checked>) {
    const knownUsers = new Map<string, number>();
    for (const user of users.values()) knownUsers.set(user.publicId, user.id);
    try {
      return await tx.savepoint((sp) =>
        many(
          sp,
          ctx,
          // each passed the kind's schema in the row check, its user_id added where the file named one
          batch.map((row) => row.item as unknown as ImportItems[ImportKindName]),
          knownUsers,
        ),
      );
    } catch {
      return [];
    }
  }

  async function writeRow(
    tx: Stores,
    ctx: RequestContext,
    row: Checked & { identity: string },
    existing: { publicId: string; name: string; role: string; employeeId: string | null } | undefined,
  ): Promise<RowOutcome> {
    try {
      if (existing) {
        // only the fields the row gives and that differ; an empty cell never clears a value
        const current: Record<string, unknown> = { name: existing.name, role: existing.role, employee_id: existing.employeeId };
        const changes: Record<string, unknown> = {};
        for (const field of kind.updatable ?? []) {
          if (row.item[field] !== undefined && row.item[field] !== current[field]) changes[field] = row.item[field];
        }
        if (Object.keys(changes).length === 0) return done(row, 'existing', existing.publicId);
        await tx.savepoint((sp) => writers.updateUser(sp, ctx, existing.publicId, parseInput(updateUserInput, changes)));
        return done(row, 'updated', existing.publicId);
      }
      const applied = await tx.savepoint((sp) => handle(sp, ctx, row.item, row.row));
      return done(row, applied.created ? 'created' : 'existing', applied.publicId);
    } catch (error) {
      if (!isLecternError(error)) throw error;
      return itemFailed(row, error);
    }
  }

  /** A row the item write (or the batch, for it) refused. */
  function itemFailed(row: Checked & { identity: string }, error: LecternError): RowOutcome {
    // a user whose email is taken already exists: the answer a re-run must give
    if (kind.name === 'users' && error instanceof ItemFailure && error.code === 'duplicate') return done(row, 'existing', error.publicId);
    return failed(row.row, error.code, itemErrorMessage(error), row.identity, error instanceof ItemFailure ? error.publicId : null);
  }
}
