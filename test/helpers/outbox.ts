/** Reads the webhook outbox straight from a test server's database (a SQLite file or a PostgreSQL URL). */
import { queryDatabase } from './database.ts';

export interface OutboxRow {
  sequence: number;
  type: string;
  payload: any;
}

/** The events recorded after `sequence`, oldest first, as the server committed them. */
export async function outboxAfter(dbFile: string, sequence: number): Promise<OutboxRow[]> {
  const rows = await queryDatabase(dbFile, 'select sequence, type, payload from outbox_events where sequence > ? order by sequence', [
    sequence,
  ]);
  return rows.map((row) => ({ sequence: Number(row.sequence), type: row.type, payload: JSON.parse(row.payload) }));
}

export const lastSequence = async (dbFile: string): Promise<number> => (await outboxAfter(dbFile, 0)).at(-1)?.sequence ?? 0;
