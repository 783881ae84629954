/**
 * How the request thread's statements meet the turns at SQLite's one write lock (transaction-turns.ts).
 *
 * The request thread's writes outside a transaction take their turn as its transactions do
 * (`takeTurn`). Left to SQLite's busy handler, which sleeps on the thread, such a write stopped
 * every request for as long as the background thread's transaction ran: a token's last use,
 * written during an import chunk, stalled the server for 0.9 s. The writes found then were moved
 * into transactions; this makes the turn hold for any write kysely sends, so a new one cannot
 * bring the stall back.
 *
 * The background thread's statements inside `GivingWay.run` stop as soon as one of the request
 * thread's writes waits (giving-way.ts).
 */
import type { Dialect } from 'kysely';
import { intercepting } from '../shared/intercepting-dialect.ts';
import { takeTurn, type WriterTurns } from '../transaction-turns.ts';

/** Whether a statement, sent now, would write outside a transaction (CachedStatementDatabase). */
export interface AutocommitWrites {
  writesOutsideTransaction(sql: string): boolean;
}

/** `dialect`, its connection's writes outside a transaction each waiting for their turn first. */
export function writesTakingTurns(dialect: Dialect, database: AutocommitWrites, turns: WriterTurns): Dialect {
  return intercepting(dialect, (query, execute) => (database.writesOutsideTransaction(query.sql) ? takeTurn(turns, execute) : execute()));
}
