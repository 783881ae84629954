import { sql, type Kysely, type Selectable } from 'kysely';
import { storedActorSchema, type JobItem, type ListQuery, type Page, type JobRecord, type JobStatus } from '@lectern/core';
import { type JobItemOutcome, type JobStore, type JobSummaryRow, type NewJobRow, type PendingJobItem } from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import type { JobItemsTable, JobsTable } from '../schema/jobs.ts';
import { applyFilters, fetchPage, fromBool, toBool } from '../listing/list-builder.ts';
import type { ListDefinition } from '../listing/list-definition.ts';
import { readElsewhere } from '../listing/resource-definition.ts';
import { insertRow } from '../shared/insert-row.ts';
import { announce } from '../postgres/postgres-wake-ups.ts';

// Bound parameters per multi-row insert stay well under SQLite's limit.
const ITEMS_PER_INSERT = 200;

function toRecord(row: Selectable<JobsTable>): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    actor: storedActorSchema.parse(JSON.parse(row.actor)),
    requestId: row.request_id,
    view: {
      id: row.public_id,
      status: row.status as JobStatus,
      total: row.total,
      processed: row.processed,
      succeeded: row.succeeded,
      failed: row.failed,
      created_at: row.created_at,
      completed_at: row.completed_at,
      error_message: row.error_message,
    },
  };
}

const jobItemListDefinition: ListDefinition<Database, 'job_items'> = {
  filters: { status: (eb, value) => eb('outcome', '=', String(value)) },
  ordering: { index: 'position' },
  tiebreak: 'position',
};

const jobListDefinition: ListDefinition<Tables<{ j: 'jobs' }>, 'j'> = {
  filters: { status: (eb, value) => eb('j.status', '=', String(value)) },
  ordering: { created_at: 'j.created_at' },
  tiebreak: 'j.id',
};

type SummaryRow = Pick<
  Selectable<JobsTable>,
  'public_id' | 'kind' | 'status' | 'total' | 'succeeded' | 'failed' | 'created_at' | 'completed_at'
> & { creator_public_id: string | null; creator_name: string | null; creator_email: string | null };

const toSummary = (row: SummaryRow): JobSummaryRow => ({
  id: row.public_id,
  kind: row.kind,
  status: row.status as JobStatus,
  created_by:
    row.creator_public_id !== null ? { public_id: row.creator_public_id, name: row.creator_name!, email: row.creator_email! } : null,
  total: row.total,
  succeeded: row.succeeded,
  failed: row.failed,
  created_at: row.created_at,
  completed_at: row.completed_at,
});

type ItemRow = Pick<Selectable<JobItemsTable>, 'position' | 'outcome' | 'public_id' | 'created' | 'error_code' | 'error_message'>;

function toJobItem(row: ItemRow): JobItem {
  const failed = row.outcome === 'failed';
  return {
    index: row.position,
    status: failed ? 'failed' : 'succeeded',
    public_id: row.public_id,
    created: failed || row.created === null ? null : toBool(row.created),
    error: failed ? { code: row.error_code ?? 'internal_error', message: row.error_message ?? '' } : null,
  };
}

export class JobRepository implements JobStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewJobRow, items: readonly unknown[]): Promise<JobRecord> {
    const id = await insertRow(this.db, 'jobs', {
      public_id: row.publicId,
      kind: row.kind,
      status: 'pending',
      actor: JSON.stringify(row.actor),
      request_id: row.requestId,
      created_by_id: row.actor.kind === 'user' ? row.actor.userId : null,
      total: items.length,
      processed: 0,
      succeeded: 0,
      failed: 0,
      created_at: row.createdAt,
    });
    for (let start = 0; start < items.length; start += ITEMS_PER_INSERT) {
      const slice = items.slice(start, start + ITEMS_PER_INSERT);
      await this.db
        .insertInto('job_items')
        // `?? null`: JSON.stringify(undefined) is not JSON; an absent item is stored as null and fails validation later
        .values(slice.map((item, i) => ({ job_id: id, position: start + i, payload: JSON.stringify(item ?? null) })))
        .execute();
    }
    await this.announce();
    return (await this.findById(id))!;
  }

  /** Other processes' job engines look for work when this transaction commits (postgres/postgres-wake-ups.ts). */
  private async announce(): Promise<void> {
    const woke = announce(this.db as Kysely<unknown>, 'jobs');
    if (woke) await sql`select ${woke}`.execute(this.db);
  }

  async findById(id: number): Promise<JobRecord | undefined> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<JobRecord | undefined> {
    const row = await this.db.selectFrom('jobs').selectAll().where('public_id', '=', publicId).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async claimable(owner: string, now: string): Promise<JobRecord[]> {
    // the literal list lets SQLite use the partial index jobs_unfinished_idx
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where(sql<boolean>`status in ('pending', 'processing')`)
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_expires_at', '<=', now)]))
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async claim(jobId: number, owner: string, until: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_owner: owner, lease_expires_at: until })
      .where('id', '=', jobId)
      .where(sql<boolean>`status in ('pending', 'processing')`)
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_expires_at', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(owner: string): Promise<void> {
    await this.db.updateTable('jobs').set({ lease_owner: null, lease_expires_at: null }).where('lease_owner', '=', owner).execute();
    await this.announce();
  }

  async nextItems(jobId: number, limit: number): Promise<PendingJobItem[]> {
    const rows = await this.db
      .selectFrom('job_items')
      .select(['position', 'payload'])
      .where('job_id', '=', jobId)
      .where('outcome', 'is', null)
      .orderBy('position')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ position: row.position, payload: JSON.parse(row.payload) as unknown }));
  }

  async recordOutcomes(jobId: number, outcomes: ReadonlyArray<{ position: number; outcome: JobItemOutcome }>): Promise<void> {
    if (outcomes.length === 0) return;
    // one UPDATE for the chunk: each column is a CASE over the items' positions (the casts give
    // PostgreSQL the parameters' types); RETURNING says which items had no outcome yet
    const column = (value: (outcome: JobItemOutcome) => string | number | null, type: 'text' | 'integer') =>
      sql<never>`case position ${sql.join(
        outcomes.map(({ position, outcome }) => sql`when ${position} then cast(${value(outcome)} as ${sql.raw(type)})`),
        sql` `,
      )} end`;
    const recorded = await this.db
      .updateTable('job_items')
      .set({
        outcome: column((outcome) => outcome.status, 'text'),
        public_id: column((outcome) => outcome.publicId, 'text'),
        created: column((outcome) => (outcome.status === 'failed' ? null : fromBool(outcome.created)), 'integer'),
        error_code: column((outcome) => (outcome.status === 'failed' ? outcome.errorCode : null), 'text'),
        error_message: column((outcome) => (outcome.status === 'failed' ? outcome.errorMessage : null), 'text'),
      })
      .where('job_id', '=', jobId)
      .where(
        'position',
        'in',
        outcomes.map(({ position }) => position),
      )
      .where('outcome', 'is', null)
      .returning('outcome')
      .execute();
    if (recorded.length === 0) return;
    const failed = recorded.filter((row) => row.outcome === 'failed').length;
    await this.db
      .updateTable('jobs')
      .set((eb) => ({
        processed: eb('processed', '+', recorded.length),
        failed: eb('failed', '+', failed),
        succeeded: eb('succeeded', '+', recorded.length - failed),
      }))
      .where('id', '=', jobId)
      .execute();
  }

  async listItems(jobId: number, query: ListQuery): Promise<Page<JobItem>> {
    const processed = this.db.selectFrom('job_items').where('job_id', '=', jobId).where('outcome', 'is not', null);
    const { rows, total } = await fetchPage(
      applyFilters(processed, query, jobItemListDefinition),
      query,
      jobItemListDefinition,
      (q) => q.select(['position', 'outcome', 'public_id', 'created', 'error_code', 'error_message']),
      readElsewhere(this.db, query),
    );
    return { total, items: rows.map(toJobItem) };
  }

  async list(query: ListQuery, createdById: number | null, kinds: readonly string[]): Promise<Page<JobSummaryRow>> {
    if (kinds.length === 0) return { items: [], total: 0 };
    let filtered = this.db.selectFrom('jobs as j').where('j.kind', 'in', [...kinds]);
    if (createdById !== null) filtered = filtered.where('j.created_by_id', '=', createdById);
    const { rows, total } = await fetchPage(
      applyFilters(filtered, query, jobListDefinition),
      query,
      jobListDefinition,
      (q) =>
        q
          .leftJoin('users as u', 'u.id', 'j.created_by_id')
          .select([
            'j.public_id',
            'j.kind',
            'j.status',
            'j.total',
            'j.succeeded',
            'j.failed',
            'j.created_at',
            'j.completed_at',
            'u.public_id as creator_public_id',
            'u.name as creator_name',
            'u.email as creator_email',
          ]),
      readElsewhere(this.db, query),
    );
    return { total, items: rows.map(toSummary) };
  }

  async setStatus(jobId: number, status: JobStatus, finish?: { at: string; errorMessage: string | null }): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status, ...(finish ? { completed_at: finish.at, error_message: finish.errorMessage } : {}) })
      .where('id', '=', jobId)
      .execute();
  }

  async countByKindAndStatus(): Promise<Array<{ kind: string; status: JobStatus; count: number }>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['kind', 'status'])
      .execute();
    return rows.map((row) => ({ kind: row.kind, status: row.status as JobStatus, count: Number(row.count) }));
  }
}
