/** Reads the webhook outbox straight from a test server's database file. */
import Database from 'better-sqlite3';

export interface OutboxRow {
  sequence: number;
  type: string;
  payload: any;
}

/** The events recorded after `sequence`, oldest first, as the server committed them. */
export function outboxAfter(dbFile: string, sequence: number): OutboxRow[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('select sequence, type, payload from outbox_events where sequence > ? order by sequence')
      .all(sequence) as any[];
    return rows.map((row) => ({ sequence: row.sequence, type: row.type, payload: JSON.parse(row.payload) }));
  } finally {
    db.close();
  }
}

export const lastSequence = (dbFile: string): number => outboxAfter(dbFile, 0).at(-1)?.sequence ?? 0;
