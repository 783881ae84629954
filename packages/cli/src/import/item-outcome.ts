/** What a bulk job's per-item result means for the row in the report. */
import type { ImportKind } from './import-kinds.ts';
import type { RowOutcome } from './report-writer.ts';

/** An item of `GET /<resource>/bulk/<id>/items/`. */
export interface JobItem {
  index: number;
  status: 'succeeded' | 'failed';
  public_id: string | null;
  created: boolean | null;
  error: { code: string; message: string } | null;
}

export function outcomeOfItem(kind: ImportKind, item: JobItem): RowOutcome {
  if (item.status === 'succeeded') {
    return { status: item.created === false ? 'existing' : 'created', public_id: item.public_id };
  }
  // a user whose email is taken already exists: the same answer a re-run must give
  if (kind.name === 'users' && item.error?.code === 'duplicate' && item.public_id) {
    return { status: 'existing', public_id: item.public_id };
  }
  return {
    status: 'failed',
    public_id: item.public_id,
    error_code: item.error?.code ?? 'failed',
    error_message: item.error?.message ?? 'The server failed this item without a reason.',
  };
}
