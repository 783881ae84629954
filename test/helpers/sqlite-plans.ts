/**
 * Kysely over a raw SQLite connection that keeps every statement it sends, for the plan tests:
 * they run the real storage code, then read SQLite's plan of what it sent (EXPLAIN QUERY PLAN).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Database } from '../../packages/storage/src/schema.ts';

export interface PlanRecorder {
  db: Kysely<Database>;
  /** the statements sent since the last `clear` */
  sent: CompiledQuery[];
  clear(): void;
  /** SQLite's plan of a sent statement, one line per step */
  planOf(query: CompiledQuery): string[];
}

export function recordPlans(raw: BetterSqlite3.Database): PlanRecorder {
  const sent: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: raw }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
  return {
    db,
    sent,
    clear: () => void (sent.length = 0),
    planOf: (query) =>
      (raw.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{ detail: string }>).map(
        (step) => step.detail,
      ),
  };
}
