import type { ReportResource, SavedReportRecord } from '../reports/saved-report.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';

export interface NewSavedReportRow {
  publicId: string;
  name: string;
  resource: ReportResource;
  expression: string;
  ordering: string | null;
  createdById: number | null;
  created: string;
}

export type SavedReportChanges = Partial<Pick<NewSavedReportRow, 'name' | 'resource' | 'expression' | 'ordering'>> & {
  modified: string;
};

export interface SavedReportStore {
  insert(row: NewSavedReportRow): Promise<number>;
  update(id: number, changes: SavedReportChanges): Promise<void>;
  softDelete(id: number, at: string): Promise<void>;
  /** Reports that are not deleted. */
  findById(id: number): Promise<SavedReportRecord | undefined>;
  findByPublicId(publicId: string): Promise<SavedReportRecord | undefined>;
  list(query: ListQuery): Promise<Page<SavedReportRecord>>;
}
