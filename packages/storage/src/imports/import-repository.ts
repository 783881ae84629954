import { sql, type Kysely, type QueryCreator, type Selectable, type SelectQueryBuilder } from 'kysely';
import { storedActorSchema, type ImportRecord, type ImportStatus, type ListQuery, type Page, type ReportRow } from '@lectern/core';
import { type ImportRowOutcome, type ImportStore, type NewImportRow, type StagedRow } from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import type { ImportsTable } from '../schema/jobs.ts';
import { readElsewhere } from '../listing/resource-definition.ts';
import { appendRows, insertRow, takesCopy } from '../shared/insert-row.ts';
import { jsonRows } from '../postgres/json-insert.ts';
import { valuesList } from '../shared/values-list.ts';
import { dialectOf } from '../shared/dialect.ts';
import { analyzeGrownTablesBeside, preferIndexLookups } from './prefer-index-lookups.ts';
import { applyFilters, fetchPage, fromBool, toBool } from '../listing/list-builder.ts';
import type { ListDefinition } from '../listing/list-definition.ts';

/** An import list's table: the import, `i`. */
type ImportTables = { i: 'imports' };

/** An import's row with its creator and its job's outcome, as reads by key and list pages both take it. */
const withCreatorAndJob = <O>(query: SelectQueryBuilder<Tables<ImportTables>, 'i', O>) =>
  query
    .leftJoin('users as u', 'u.id', 'i.created_by_id')
    .leftJoin('jobs as j', 'j.id', 'i.job_id')
    .selectAll('i')
    .select([
      'u.public_id as creator_public_id',
      'u.name as creator_name',
      'u.email as creator_email',
      'j.error_message as job_error',
      'j.status as job_status',
      'j.completed_at as job_completed_at',
    ]);

// Identities per duplicate lookup: one bound value each, well under SQLite's limit of bound parameters.
const IDENTITIES_PER_LOOKUP = 500;

type ImportRow = Selectable<ImportsTable> & {
  creator_public_id: string | null;
  creator_name: string | null;
  creator_email: string | null;
  job_error: string | null;
  job_status: string | null;
  job_completed_at: string | null;
};

function toRecord(row: ImportRow): ImportRecord {
  // the engine fails a job whose chunks keep failing; the import says so until it is marked itself
  const jobFailed = row.job_status === 'failed' && row.status !== 'failed' && row.status !== 'cancelled';
  const status = jobFailed ? 'failed' : row.status === 'receiving' ? 'pending' : row.status;
  const error =
    row.error_code !== null
      ? { code: row.error_code, message: row.error_message ?? '' }
      : jobFailed
        ? { code: 'internal_error', message: row.job_error ?? 'The import stopped on an unexpected error.' }
        : null;
  return {
    id: row.id,
    jobId: row.job_id,
    kind: row.kind as ImportRecord['kind'],
    header: JSON.parse(row.header) as string[],
    actor: storedActorSchema.parse(JSON.parse(row.actor)),
    requestId: row.request_id,
    createdById: row.created_by_id,
    doneThrough: row.done_through,
    view: {
      id: row.public_id,
      kind: row.kind as ImportRecord['kind'],
      status: status as ImportRecord['view']['status'],
      dry_run: toBool(row.dry_run),
      update: toBool(row.update_existing),
      filename: row.filename,
      total_rows: row.total_rows,
      processed: row.processed,
      created: row.created,
      existing: row.existing,
      updated: row.updated,
      valid: row.valid,
      failed: row.failed,
      error,
      created_by:
        row.creator_public_id !== null ? { public_id: row.creator_public_id, name: row.creator_name!, email: row.creator_email! } : null,
      created_at: row.created_at,
      started_at: row.started_at,
      completed_at: row.completed_at ?? (jobFailed ? row.job_completed_at : null),
    },
  };
}

const importListDefinition: ListDefinition<Tables<ImportTables>, 'i'> = {
  filters: {
    kind: (eb, value) => eb('i.kind', '=', String(value)),
    status: (eb, value) => eb('i.status', '=', String(value)),
  },
  ordering: { created_at: 'i.created_at' },
  tiebreak: 'i.id',
};

const outcomeCounts = (outcomes: readonly ImportRowOutcome[]) => {
  const counts = { created: 0, existing: 0, updated: 0, valid: 0, failed: 0 };
  for (const outcome of outcomes) counts[outcome.status]++;
  return counts;
};

export class ImportRepository implements ImportStore {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return withCreatorAndJob(this.db.selectFrom('imports as i'));
  }

  insert(row: NewImportRow): Promise<number> {
    return insertRow(this.db, 'imports', {
      public_id: row.publicId,
      kind: row.kind,
      status: 'receiving',
      dry_run: fromBool(row.dryRun),
      update_existing: fromBool(row.update),
      filename: row.filename,
      header: JSON.stringify(row.header),
      actor: JSON.stringify(row.actor),
      created_by_id: row.createdById,
      request_id: row.requestId,
      created_at: row.createdAt,
    });
  }

  async stageRows(importId: number, rows: readonly StagedRow[]): Promise<void> {
    await appendRows(
      this.db,
      'import_rows',
      rows.map((row) => ({
        import_id: importId,
        row: row.row,
        cells: JSON.stringify(row.cells),
        bad_fields: row.badFields ? JSON.stringify(row.badFields) : null,
        too_long: row.tooLong ? 1 : null,
      })),
    );
  }

  async discard(importId: number): Promise<void> {
    await this.db.deleteFrom('import_results').where('import_id', '=', importId).execute();
    await this.db.deleteFrom('import_rows').where('import_id', '=', importId).execute();
    await this.db.deleteFrom('imports').where('id', '=', importId).execute();
  }

  async discardAbandoned(before: string): Promise<number> {
    const abandoned = await this.db
      .selectFrom('imports')
      .select('id')
      .where('status', '=', 'receiving')
      .where('created_at', '<', before)
      .execute();
    for (const { id } of abandoned) await this.discard(id);
    return abandoned.length;
  }

  async submitted(importId: number, jobId: number, totalRows: number): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({ job_id: jobId, total_rows: totalRows, status: 'pending' })
      .where('id', '=', importId)
      .execute();
  }

  async findById(id: number): Promise<ImportRecord | undefined> {
    const row = await this.select().where('i.id', '=', id).executeTakeFirst();
    return row ? toRecord(row as ImportRow) : undefined;
  }

  async findByPublicId(publicId: string): Promise<ImportRecord | undefined> {
    const row = await this.select().where('i.public_id', '=', publicId).where('i.status', '!=', 'receiving').executeTakeFirst();
    return row ? toRecord(row as ImportRow) : undefined;
  }

  async findByJobId(jobId: number): Promise<ImportRecord | undefined> {
    const row = await this.select().where('i.job_id', '=', jobId).executeTakeFirst();
    return row ? toRecord(row as ImportRow) : undefined;
  }

  async list(query: ListQuery, createdById: number | null, kinds: readonly string[]): Promise<Page<ImportRecord>> {
    let filtered = this.db
      .selectFrom('imports as i')
      .where('i.status', '!=', 'receiving')
      .where('i.kind', 'in', [...kinds]);
    if (createdById !== null) filtered = filtered.where('i.created_by_id', '=', createdById);
    const { rows, total } = await fetchPage(
      applyFilters(filtered, query, importListDefinition),
      query,
      importListDefinition,
      withCreatorAndJob,
      readElsewhere(this.db, query),
    );
    return { total, items: rows.map(toRecord) };
  }

  async rowsAfter(importId: number, doneThrough: number, limit: number): Promise<StagedRow[]> {
    const rows = await this.db
      .selectFrom('import_rows')
      .select(['row', 'cells', 'bad_fields', 'too_long'])
      .where('import_id', '=', importId)
      .where('row', '>', doneThrough)
      .orderBy('row')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      row: row.row,
      cells: JSON.parse(row.cells) as string[],
      badFields: row.bad_fields === null ? null : (JSON.parse(row.bad_fields) as number[]),
      tooLong: row.too_long === 1,
    }));
  }

  /**
   * On PostgreSQL, one probe of the (import, identity) index per identity. Its statistics have not
   * seen the running import (gathered before it, or at a million rows and not again for the next
   * hundred thousand), so they count its id as one row: given `import_id = <the id>`, it read the
   * import's outcomes by the primary key (import_id, row) and filtered identities, every outcome
   * so far for each batch (100 000 a batch late in an import), or for each key. `(select id)`
   * hides the id from the planner, which then counts the import as an average one and probes the
   * identity index; `row + 0` keeps it from answering min() by reading the primary key in order.
   * SQLite keeps no statistics and seeks the same index for the list of identities, a quarter of
   * the per-key form's time there (0.09 against 0.36 ms for 500 identities). On PostgreSQL the
   * identities are one array parameter (valuesList): as a list of values, each bound and cast on its
   * own, the statement's 500 parameters were compiled, sent and planned one by one for every batch.
   */
  async firstRowsOf(importId: number, identities: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const perKey = dialectOf(this.db).plannerStatistics;
    for (let start = 0; start < identities.length; start += IDENTITIES_PER_LOOKUP) {
      const slice = identities.slice(start, start + IDENTITIES_PER_LOOKUP);
      const rows = perKey
        ? (
            await sql<{ identity: string; first: number | null }>`
              with k(identity) as (${valuesList(
                this.db,
                slice.map((identity) => [identity]),
                ['text'],
              )})
              select k.identity, (select min(r.row + 0) from import_results r where r.import_id = (select cast(${importId} as integer)) and r.identity = k.identity) as first
              from k`.execute(this.db)
          ).rows
        : await this.db
            .selectFrom('import_results')
            .select(['identity', (eb) => eb.fn.min<number>('row').as('first')])
            .where('import_id', '=', importId)
            .where('identity', 'in', slice)
            .groupBy('identity')
            .execute();
      for (const row of rows) if (row.first !== null && row.identity !== null) found.set(row.identity, Number(row.first));
    }
    return found;
  }

  analyzeGrownTables(): void {
    analyzeGrownTablesBeside(this.db);
  }

  async preferIndexLookups(): Promise<void> {
    await preferIndexLookups(this.db);
  }

  async recordOutcomes(importId: number, outcomes: readonly ImportRowOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const results = outcomes.map((outcome) => ({
      import_id: importId,
      row: outcome.row,
      status: outcome.status,
      public_id: outcome.publicId,
      error_code: outcome.errorCode,
      error_message: outcome.errorMessage,
      identity: outcome.identity,
    }));
    const counts = outcomeCounts(outcomes);
    const progress = (db: QueryCreator<Database>) =>
      db
        .updateTable('imports')
        .set((eb) => ({
          done_through: outcomes[outcomes.length - 1]!.row,
          processed: eb('processed', '+', outcomes.length),
          created: eb('created', '+', counts.created),
          existing: eb('existing', '+', counts.existing),
          updated: eb('updated', '+', counts.updated),
          valid: eb('valid', '+', counts.valid),
          failed: eb('failed', '+', counts.failed),
        }))
        .where('id', '=', importId);
    if (takesCopy(this.db, results)) {
      // one round trip on PostgreSQL: the outcomes, one JSON parameter, are inserted by a WITH of
      // the import's update (a data-modifying WITH runs whether or not the update reads it)
      const { columns, rows } = jsonRows('import_results', results);
      const written = this.db.with('written', (db) =>
        db
          .insertInto('import_results')
          .columns(columns as never)
          .expression(rows as never),
      );
      // the update reads none of the WITH's tables, so it is typed as one without it
      await progress(written as unknown as QueryCreator<Database>).execute();
      return;
    }
    await appendRows(this.db, 'import_results', results);
    await progress(this.db).execute();
  }

  async cancelRemaining(importId: number, message: string): Promise<void> {
    const current = await this.db.selectFrom('imports').select(['done_through']).where('id', '=', importId).executeTakeFirstOrThrow();
    const inserted = await this.db
      .insertInto('import_results')
      .columns(['import_id', 'row', 'status', 'error_code', 'error_message'])
      .expression((eb) =>
        eb
          .selectFrom('import_rows')
          .select([
            'import_id',
            'row',
            sql.lit('failed').as('status'),
            sql.lit('cancelled').as('error_code'),
            sql<string>`${message}`.as('error_message'),
          ])
          .where('import_id', '=', importId)
          .where('row', '>', current.done_through),
      )
      .executeTakeFirst();
    const count = Number(inserted.numInsertedOrUpdatedRows ?? 0);
    const last = await this.db
      .selectFrom('import_rows')
      .select((eb) => eb.fn.max('row').as('last'))
      .where('import_id', '=', importId)
      .executeTakeFirst();
    await this.db
      .updateTable('imports')
      .set((eb) => ({
        done_through: Math.max(current.done_through, Number(last?.last ?? 0)),
        processed: eb('processed', '+', count),
        failed: eb('failed', '+', count),
      }))
      .where('id', '=', importId)
      .execute();
  }

  async setStatus(
    importId: number,
    status: string,
    times: { startedAt?: string; completedAt?: string; error?: { code: string; message: string } } = {},
  ): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({
        status,
        ...(times.startedAt ? { started_at: times.startedAt } : {}),
        ...(times.completedAt ? { completed_at: times.completedAt } : {}),
        ...(times.error ? { error_code: times.error.code, error_message: times.error.message } : {}),
      })
      .where('id', '=', importId)
      .execute();
  }

  async reportRows(importId: number, afterRow: number, limit: number): Promise<ReportRow[]> {
    // two range reads of the primary keys rather than a join: PostgreSQL planned the join, with
    // statistics not yet caught up with a fresh import, as a scan of every uploaded row per result
    const results = await this.db
      .selectFrom('import_results')
      .select(['row', 'status', 'public_id', 'error_code', 'error_message'])
      .where('import_id', '=', importId)
      .where('row', '>', afterRow)
      .orderBy('row')
      .limit(limit)
      .execute();
    if (results.length === 0) return [];
    const uploaded = await this.db
      .selectFrom('import_rows')
      .select(['row', 'cells'])
      .where('import_id', '=', importId)
      .where('row', '>', afterRow)
      .where('row', '<=', results[results.length - 1]!.row)
      .execute();
    const cellsOf = new Map(uploaded.map((row) => [row.row, row.cells]));
    return results.map((row) => ({
      row: row.row,
      status: row.status as ReportRow['status'],
      publicId: row.public_id,
      errorCode: row.error_code,
      errorMessage: row.error_message,
      cells: JSON.parse(cellsOf.get(row.row) ?? '[]') as string[],
    }));
  }

  async countByKindAndStatus(): Promise<Array<{ kind: string; status: ImportStatus; count: number }>> {
    const rows = await this.db
      .selectFrom('imports')
      .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', '!=', 'receiving')
      .groupBy(['kind', 'status'])
      .execute();
    return rows.map((row) => ({ kind: row.kind, status: row.status as ImportStatus, count: Number(row.count) }));
  }
}
