import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** A query whose rows can be read here or elsewhere: compiled for another connection, or run on its own. */
export type ReadQuery<O> = Compilable<O> & { execute(): Promise<O[]> };

/**
 * Runs one read statement somewhere other than the thread serving requests, and resolves with its
 * rows: on SQLite, a read thread with a connection of its own (sqlite/read-threads.ts).
 * better-sqlite3 is synchronous, so a search over hundreds of thousands of rows run on the request
 * thread stops every other request until it ends. `undefined`, at once or once settled: there is
 * nowhere else to read it (the threads could not start, or are gone), so it is read here.
 */
export type OffloadedRead = (sql: string, parameters: readonly unknown[]) => Promise<unknown[] | RowPieces | undefined> | undefined;

/**
 * Rows read elsewhere that come in pieces, each turned into rows only when it is taken: an
 * export's rows read ahead stay compact text until their batch is written, rather than objects
 * old enough to be promoted out of the young generation (sqlite/read-threads.ts).
 */
export interface RowPieces {
  /** rows in all the pieces */
  readonly count: number;
  /** each piece's rows, in order, made when called (once) */
  readonly pieces: ReadonlyArray<() => unknown[]>;
}

const isPieces = (rows: unknown[] | RowPieces): rows is RowPieces => !Array.isArray(rows);

/** The query's rows in pieces (one, when read on its own connection or answered whole). */
export async function piecesOf<O>(query: ReadQuery<O>, read: OffloadedRead | undefined): Promise<RowPieces> {
  if (read) {
    const compiled = query.compile();
    const rows = await read(compiled.sql, compiled.parameters);
    if (rows) return isPieces(rows) ? rows : { count: rows.length, pieces: [() => rows] };
  }
  const rows = (await query.execute()) as unknown[];
  return { count: rows.length, pieces: [() => rows] };
}

const offloaded = new WeakMap<Kysely<Database>, OffloadedRead>();

/**
 * Lets the heavy list reads made on `db` itself run through `read`. Only the root database: a
 * transaction's reads must see its own writes, which another connection does not.
 */
export function allowOffloadedReads(db: Kysely<Database>, read: OffloadedRead): void {
  offloaded.set(db, read);
}

export function offloadedReadOf(db: Kysely<Database>): OffloadedRead | undefined {
  return offloaded.get(db);
}

/** The query's rows, read through `read` when given, else on the query's own connection. */
export async function rowsOf<Row>(query: ReadQuery<Row>, read: OffloadedRead | undefined): Promise<Row[]> {
  const { pieces } = await piecesOf(query, read);
  return (pieces.length === 1 ? pieces[0]!() : pieces.flatMap((piece) => piece())) as Row[];
}
