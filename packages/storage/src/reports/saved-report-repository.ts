import type { Kysely } from 'kysely';
import { savedReportListSpec, savedReportSchema, type ListQuery, type Page, type SavedReport, type SavedReportRecord } from '@lectern/core';
import { type NewSavedReportRow, type SavedReportChanges, type SavedReportStore } from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import { ignoringCase } from '../listing/list-builder.ts';
import type { Condition } from '../listing/list-definition.ts';
import { defineResource, referenceTo, recordOf } from '../listing/resource-definition.ts';
import { insertRow } from '../shared/insert-row.ts';

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

  findById(id: number): Promise<SavedReportRecord | undefined> {
    return this.findOne((eb) => eb('r.id', '=', id));
  }

  findByPublicId(publicId: string): Promise<SavedReportRecord | undefined> {
    return this.findOne((eb) => eb('r.public_id', '=', publicId));
  }

  async list(query: ListQuery): Promise<Page<SavedReportRecord>> {
    const live = this.db.selectFrom('saved_reports as r').where('r.deleted_at', 'is', null);
    const { total, records } = await savedReportResource.page(this.db, live, query);
    return { total, items: records.map(recordOf) };
  }

  private async findOne(where: Condition<Tables<{ r: 'saved_reports' }>, 'r'>): Promise<SavedReportRecord | undefined> {
    const row = await savedReportResource.read(this.db).where('r.deleted_at', 'is', null).where(where).executeTakeFirst();
    return row ? toSavedReportRecord(row) : undefined;
  }
}
