import type { Kysely } from 'kysely';
import { savedReportListSpec, savedReportSchema, type ListQuery, type Page, type SavedReport, type SavedReportRecord } from '@lectern/core';
import { type NewSavedReportRow, type SavedReportChanges, type SavedReportStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { ignoringCase } from '../listing/list-builder.ts';
import { defineResource, referenceTo, recordOf } from '../listing/resource-definition.ts';
import { insertRow } from '../shared/insert-row.ts';
import { preparedLookup } from '../shared/prepared-query.ts';

/** Saved reports, from core's savedReportSchema: the creator is the user `c`, absent for the system's reports. */
const savedReportResource = defineResource<SavedReport, Omit<SavedReportRecord, 'view'>, { r: 'saved_reports' }, { c: 'users' }>(
  savedReportSchema,
  savedReportListSpec,
  {
    table: 'saved_reports',
    alias: 'r',
    internal: { id: 'r.id', createdById: 'r.created_by' },
    fields: { name: { sort: ignoringCase('r.name') } },
    references: {
      created_by: referenceTo('users', 'c', 'r.created_by', 'left'),
    },
    tiebreak: 'r.id',
  },
);

function toSavedReportRecord(row: Record<string, unknown>): SavedReportRecord {
  return recordOf(savedReportResource.toRecord(row));
}

const liveReports = (db: Kysely<Database>) => savedReportResource.read(db).where('r.deleted_at', 'is', null);
// compiled once (see prepared-query.ts): a report's rows are read after its definition, at every run
const reportById = preparedLookup<Record<string, unknown>, [id: number]>(1, (db, id) => liveReports(db).where('r.id', '=', id));
const reportByPublicId = preparedLookup<Record<string, unknown>, [publicId: string]>(1, (db, publicId) =>
  liveReports(db).where('r.public_id', '=', publicId),
);

export class SavedReportRepository implements SavedReportStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewSavedReportRow): Promise<number> {
    const id = await insertRow(this.db, 'saved_reports', {
      ...savedReportResource.toColumns({ ...row, createdById: undefined }),
      created_by: row.createdById,
      modified: row.created,
    });
    return id;
  }

  async update(id: number, changes: SavedReportChanges): Promise<void> {
    await this.db.updateTable('saved_reports').set(savedReportResource.toColumns(changes)).where('id', '=', id).execute();
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db.updateTable('saved_reports').set({ deleted_at: at, modified: at }).where('id', '=', id).execute();
  }

  async findById(id: number): Promise<SavedReportRecord | undefined> {
    const row = await reportById(this.db, id);
    return row ? toSavedReportRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<SavedReportRecord | undefined> {
    const row = await reportByPublicId(this.db, publicId);
    return row ? toSavedReportRecord(row) : undefined;
  }

  async list(query: ListQuery): Promise<Page<SavedReportRecord>> {
    const live = this.db.selectFrom('saved_reports as r').where('r.deleted_at', 'is', null);
    const { total, records } = await savedReportResource.page(this.db, live, query);
    return { total, items: records.map(recordOf) };
  }
}
