import type { Expression, Kysely, Selectable, SqlBool } from 'kysely';
import type {
  ListQuery,
  NewSavedReportRow,
  Page,
  ReportResource,
  SavedReportChanges,
  SavedReportRecord,
  SavedReportStore,
} from '@lectern/core';
import type { Database, SavedReportsTable } from '../schema.ts';
import { applyFilters, fetchPage, ignoringCase, type AnyEb, type ListDefinition } from '../shared/list-builder.ts';

/** A report read: its own columns with its creator's reference. */
type SavedReportRow = Omit<Selectable<SavedReportsTable>, 'deleted_at'> & {
  creator_public_id: string | null;
  creator_name: string | null;
  creator_email: string | null;
};

const savedReportListDefinition: ListDefinition = {
  filters: {
    resource: (eb, value) => eb('r.resource', 'in', value as string[]),
    created_by: (eb, value) => eb('r.created_by', '=', eb.selectFrom('users as cf').select('cf.id').where('cf.public_id', '=', value)),
  },
  ranges: { created: 'r.created', modified: 'r.modified' },
  search: ['r.name'],
  ordering: { name: ignoringCase('r.name'), resource: 'r.resource', created: 'r.created', modified: 'r.modified' },
  tiebreak: 'r.id',
};

const savedReportColumns = [
  'r.id',
  'r.public_id',
  'r.name',
  'r.resource',
  'r.expression',
  'r.ordering',
  'r.created_by',
  'r.created',
  'r.modified',
  'c.public_id as creator_public_id',
  'c.name as creator_name',
  'c.email as creator_email',
] as const;

function toSavedReportRecord(row: SavedReportRow): SavedReportRecord {
  return {
    id: row.id,
    createdById: row.created_by,
    view: {
      public_id: row.public_id,
      name: row.name,
      resource: row.resource as ReportResource,
      expression: row.expression,
      ordering: row.ordering,
      created_by:
        row.creator_public_id === null ? null : { public_id: row.creator_public_id, name: row.creator_name!, email: row.creator_email! },
      created: row.created,
      modified: row.modified,
    },
  };
}

export class SavedReportRepository implements SavedReportStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewSavedReportRow): Promise<number> {
    const inserted = await this.db
      .insertInto('saved_reports')
      .values({
        public_id: row.publicId,
        name: row.name,
        resource: row.resource,
        expression: row.expression,
        ordering: row.ordering,
        created_by: row.createdById,
        created: row.created,
        modified: row.created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async update(id: number, changes: SavedReportChanges): Promise<void> {
    await this.db.updateTable('saved_reports').set(changes).where('id', '=', id).execute();
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db.updateTable('saved_reports').set({ deleted_at: at, modified: at }).where('id', '=', id).execute();
  }

  findById(id: number): Promise<SavedReportRecord | undefined> {
    return this.findOne((eb) => eb('r.id', '=', id));
  }

  findByPublicId(publicId: string): Promise<SavedReportRecord | undefined> {
    return this.findOne((eb) => eb('r.public_id', '=', publicId));
  }

  async list(query: ListQuery): Promise<Page<SavedReportRecord>> {
    const filtered = applyFilters(
      this.db.selectFrom('saved_reports as r').where('r.deleted_at', 'is', null),
      query,
      savedReportListDefinition,
    );
    const { rows, total } = await fetchPage<SavedReportRow>(filtered, query, savedReportListDefinition, (q) =>
      q.leftJoin('users as c', 'c.id', 'r.created_by').select(savedReportColumns),
    );
    return { total, items: rows.map(toSavedReportRecord) };
  }

  private async findOne(where: (eb: AnyEb) => Expression<SqlBool>): Promise<SavedReportRecord | undefined> {
    const row = await this.db
      .selectFrom('saved_reports as r')
      .leftJoin('users as c', 'c.id', 'r.created_by')
      .select(savedReportColumns)
      .where('r.deleted_at', 'is', null)
      .where(where)
      .executeTakeFirst();
    return row ? toSavedReportRecord(row) : undefined;
  }
}
