import { sql, type InferResult, type Kysely } from 'kysely';
import { readForExport, whenSettled, type AuditEntry, type AuditQuery } from '@lectern/core';
import type { AuditStore, NewAuditRow } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { preparedLookup, preparedQuery } from '../shared/prepared-query.ts';
import { appendRows } from '../shared/insert-row.ts';
import { offloadedReadOf, rowsOf } from '../shared/offloaded-reads.ts';
import { dialectOf } from '../shared/dialect.ts';

// Written by every change, into the table without indexes (migration 0016): compiled once rather
// than built per write (see prepared-query.ts).
const insertEntry = preparedQuery(
  9,
  (
    db: Kysely<Database>,
    publicId: string,
    occurredAt: string,
    action: string,
    actorUserId: number | null,
    tokenId: number | null,
    requestId: string | null,
    resourceType: string,
    resourceId: string,
    changes: string | null,
  ) =>
    db.insertInto('audit_log_recent').values({
      public_id: publicId,
      occurred_at: occurredAt,
      action,
      actor_user_id: actorUserId,
      token_id: tokenId,
      request_id: requestId,
      resource_type: resourceType,
      resource_id: resourceId,
      changes,
    }),
);

// Asked every maintenance pass (5 s), busy or idle; the limit is written in (see prepared-query.ts).
const anyStaged = preparedLookup(0, (db: Kysely<Database>) => db.selectFrom('audit_log_recent').select('id').limit(sql.lit(1)));

// every column of an entry, as settle moves it from audit_log_recent into audit_log
const MOVED_COLUMNS = [
  'id',
  'public_id',
  'occurred_at',
  'action',
  'actor_user_id',
  'token_id',
  'request_id',
  'resource_type',
  'resource_id',
  'changes',
] as const;

export class AuditRepository implements AuditStore {
  constructor(private readonly db: Kysely<Database>) {}

  async append(row: NewAuditRow): Promise<void> {
    await insertEntry(
      this.db,
      row.publicId,
      row.occurredAt,
      row.action,
      row.actorUserId,
      row.tokenId,
      row.requestId,
      row.resourceType,
      row.resourceId,
      row.changes === null ? null : JSON.stringify(row.changes),
    );
  }

  async appendMany(rows: readonly NewAuditRow[]): Promise<void> {
    await appendRows(
      this.db,
      'audit_log_recent',
      rows.map((row) => ({
        public_id: row.publicId,
        occurred_at: row.occurredAt,
        action: row.action,
        actor_user_id: row.actorUserId,
        token_id: row.tokenId,
        request_id: row.requestId,
        resource_type: row.resourceType,
        resource_id: row.resourceId,
        changes: row.changes === null ? null : JSON.stringify(row.changes),
      })),
    );
  }

  async list(query: AuditQuery): Promise<{ items: AuditEntry[]; hasMore: boolean } | null> {
    let before: number | undefined;
    if (query.cursor !== undefined) {
      // the recent table is small and has no index on public_id; the log has a unique one
      const row =
        (await this.db.selectFrom('audit_log_recent').select('id').where('public_id', '=', query.cursor).executeTakeFirst()) ??
        (await this.db.selectFrom('audit_log').select('id').where('public_id', '=', query.cursor).executeTakeFirst());
      if (!row) return null;
      before = row.id;
    }
    const wanted = query.pageSize + 1;
    // every recent row is newer than every moved one: the recent rows come first, then the log's,
    // below the oldest recent row read (a move committing between the reads cannot repeat a row)
    const recent = await this.page('audit_log_recent', query, before, wanted);
    const oldestRecent = recent.at(-1)?.id;
    const rows =
      recent.length < wanted
        ? [...recent, ...(await this.page('audit_log', query, oldestRecent ?? before, wanted - recent.length))]
        : recent;
    const items = rows.slice(0, query.pageSize).map((row): AuditEntry => ({
      id: row.public_id,
      occurred_at: row.occurred_at,
      action: row.action,
      actor: row.actor_public_id != null && row.actor_email != null ? { public_id: row.actor_public_id, email: row.actor_email } : null,
      token_public_id: row.token_public_id ?? null,
      request_id: row.request_id,
      resource: { type: row.resource_type, public_id: row.resource_id },
      changes: row.changes === null ? null : (JSON.parse(row.changes) as AuditEntry['changes']),
    }));
    return { items, hasMore: rows.length > query.pageSize };
  }

  /** One table's entries matching the query below `before`, newest first, at most `limit`. */
  private page(table: 'audit_log' | 'audit_log_recent', query: AuditQuery, before: number | undefined, limit: number) {
    const page = this.db
      .selectFrom(`${table} as a`)
      .leftJoin('users as u', 'u.id', 'a.actor_user_id')
      .leftJoin('api_tokens as t', 't.id', 'a.token_id')
      .select([
        'a.id',
        'a.public_id',
        'a.occurred_at',
        'a.action',
        'u.public_id as actor_public_id',
        'u.email as actor_email',
        't.public_id as token_public_id',
        'a.request_id',
        'a.resource_type',
        'a.resource_id',
        'a.changes',
      ])
      .$if(query.actor !== undefined, (q) =>
        q.where('a.actor_user_id', '=', (eb) => eb.selectFrom('users').select('id').where('public_id', '=', query.actor!)),
      )
      .$if(query.action !== undefined, (q) => q.where('a.action', '=', query.action!))
      .$if(query.resourceType !== undefined, (q) => q.where('a.resource_type', '=', query.resourceType!))
      .$if(query.resourceId !== undefined, (q) => q.where('a.resource_id', '=', query.resourceId!))
      .$if(query.occurredFrom !== undefined, (q) => q.where('a.occurred_at', '>=', query.occurredFrom!))
      .$if(query.occurredTo !== undefined, (q) => q.where('a.occurred_at', '<=', query.occurredTo!))
      .$if(before !== undefined, (q) => q.where('a.id', '<', before!))
      .orderBy('a.id', 'desc')
      .limit(limit);
    // an export's pages are read on a read thread where there is one: a filter that matches few
    // entries can read far into the log to fill a page
    return rowsOf<InferResult<typeof page>[number]>(page, readForExport() ? offloadedReadOf(this.db) : undefined);
  }

  hasStaged(): boolean | Promise<boolean> {
    const found = anyStaged(this.db);
    return whenSettled(found, (row) => row !== undefined);
  }

  /**
   * On PostgreSQL one statement deletes the oldest staged rows and inserts what it deleted, and
   * runs without the write lock (audit-service.ts `settle`): the rows it can see are committed,
   * and no entry still to commit can have a lower id than they do, since every writer of entries
   * takes its ids and commits under the write lock, one after another. Two servers settling at
   * once take no row twice: the second's DELETE waits for the first's row locks, then finds those
   * rows gone and skips them. SQLite serialises every writer anyway and takes the two statements.
   */
  async settle(limit?: number): Promise<number> {
    if (dialectOf(this.db).deleteFeedsInsert) {
      const columns = sql.join(MOVED_COLUMNS.map((column) => sql.ref(column)));
      const oldest = limit === undefined ? sql`` : sql`where id in (select id from audit_log_recent order by id limit ${sql.lit(limit)})`;
      const result = await sql`with moved as (delete from audit_log_recent ${oldest} returning ${columns})
        insert into audit_log (${columns}) select ${columns} from moved`.execute(this.db);
      return Number(result.numAffectedRows ?? 0);
    }
    // the newest of the oldest `limit` staged (of all of them without a limit)
    const staged = this.db.selectFrom('audit_log_recent').select('id');
    const newest = await this.db
      .selectFrom((limit === undefined ? staged : staged.orderBy('id').limit(limit)).as('staged'))
      .select((eb) => eb.fn.max('staged.id').as('id'))
      .executeTakeFirst();
    const upTo = newest?.id;
    if (upTo === null || upTo === undefined) return 0;
    await this.db
      .insertInto('audit_log')
      .columns(MOVED_COLUMNS)
      .expression((eb) => eb.selectFrom('audit_log_recent').select(MOVED_COLUMNS).where('id', '<=', upTo))
      .execute();
    const moved = await this.db.deleteFrom('audit_log_recent').where('id', '<=', upTo).executeTakeFirst();
    return Number(moved.numDeletedRows);
  }

  async pruneBefore(cutoff: string, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_log')
      .where('id', 'in', (eb) =>
        eb.selectFrom('audit_log').select('id').where('occurred_at', '<', cutoff).orderBy('occurred_at').limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * After rows were copied into a PostgreSQL database (migrate-data): the staging table's identity
 * must continue after every copied id of both tables, or a new entry would sort below the moved
 * ones and its move would collide with one of them.
 */
export async function continueAuditIds(db: Kysely<Database>): Promise<void> {
  await sql`select setval(pg_get_serial_sequence('audit_log_recent', 'id'),
    greatest((select coalesce(max(id), 0) from audit_log), (select coalesce(max(id), 0) from audit_log_recent)) + 1, false)`.execute(db);
}
