import { sql, type Kysely } from 'kysely';
import type { CountedCredentials, RateCounterStore, TokenWindows } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { toCredentials, type CredentialsRow } from '../auth/token-repository.ts';
import { preparedLookup } from '../shared/prepared-query.ts';

/** Ended windows are dropped once per this many hits: one cheap DELETE amortised over many requests. */
const SWEEP_EVERY = 1000;

// one statement: concurrent hits of the same key on several servers serialise on its row. Both
// are compiled once (shared/prepared-query.ts): every request on a shared database runs them.
const countHit = preparedLookup<{ hits: number }, [key: string, windowStart: number]>(2, (db: Kysely<Database>, key, windowStart) =>
  db
    .insertInto('rate_limit_windows')
    .values({ key, window_start: sql<number>`cast(${windowStart} as bigint)`, hits: sql.lit(1) })
    .onConflict((conflict) => conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`rate_limit_windows.hits + 1` }))
    .returning('hits'),
);

/**
 * The token by hash and, when it is in force, its window and its user's: every authenticated
 * request on a shared database, so one round trip instead of two. The user's window is counted
 * from the token's count in the same statement (a data-modifying CTE sees the rows the one before
 * it returned), only when the token is within its limit. Whether it is in
 * force is decided again by core (TokenService) on the row this returns; the condition here only
 * keeps a refused token from counting, and must say the same.
 */
const countToken = preparedLookup<
  CredentialsRow & { token_hits: number | null; user_hits: number | null },
  [tokenHash: string, now: string, tokenPrefix: string, userPrefix: string, windowStart: number, tokenLimit: number]
>(6, (db: Kysely<Database>, tokenHash, now, tokenPrefix, userPrefix, windowStart, tokenLimit) => ({
  compile: () =>
    sql<CredentialsRow & { token_hits: number | null; user_hits: number | null }>`with c as (
        select t.id, t.scopes, t.expires_at, u.id as user_id, u.public_id, u.role, u.is_active
        from api_tokens t join users u on u.id = t.user_id
        where t.token_hash = ${tokenHash} and t.revoked_at is null),
      live as (
        select id, user_id from c where c.is_active <> 0 and (c.expires_at is null or c.expires_at > ${now})),
      f as (
        insert into rate_limit_windows (key, window_start, hits)
        select cast(${tokenPrefix} as text) || live.id, cast(${windowStart} as bigint), 1 from live
        on conflict (key, window_start) do update set hits = rate_limit_windows.hits + 1
        returning hits),
      s as (
        insert into rate_limit_windows (key, window_start, hits)
        select cast(${userPrefix} as text) || live.user_id, cast(${windowStart} as bigint), 1
        from live, f where f.hits <= cast(${tokenLimit} as bigint)
        on conflict (key, window_start) do update set hits = rate_limit_windows.hits + 1
        returning hits)
      select c.*, (select f.hits from f) as token_hits, (select s.hits from s) as user_hits from c`.compile(db),
}));

const readCount = preparedLookup<{ hits: number }, [key: string, windowStart: number]>(2, (db: Kysely<Database>, key, windowStart) =>
  db
    .selectFrom('rate_limit_windows')
    .select('hits')
    .where('key', '=', key)
    .where('window_start', '=', sql<number>`cast(${windowStart} as bigint)`),
);

export class RateCounterRepository implements RateCounterStore {
  private hits = 0;

  constructor(private readonly db: Kysely<Database>) {}

  async hit(key: string, windowStart: number): Promise<number> {
    const row = await countHit(this.db, key, windowStart);
    await this.counted(windowStart);
    return Number(row!.hits);
  }

  async hitByToken(tokenHash: string, now: string, windows: TokenWindows): Promise<CountedCredentials | undefined> {
    const { tokenPrefix, userPrefix, windowStart, tokenLimit } = windows;
    const row = await countToken(this.db, tokenHash, now, tokenPrefix, userPrefix, windowStart, tokenLimit);
    if (!row) return undefined;
    const credentials = toCredentials(row);
    if (row.token_hits === null) return { credentials, hits: null };
    await this.counted(windowStart);
    return { credentials, hits: [Number(row.token_hits), row.user_hits === null ? null : Number(row.user_hits)] };
  }

  async count(key: string, windowStart: number): Promise<number> {
    const row = await readCount(this.db, key, windowStart);
    return row ? Number(row.hits) : 0;
  }

  private async counted(windowStart: number): Promise<void> {
    if (++this.hits % SWEEP_EVERY === 0) await this.db.deleteFrom('rate_limit_windows').where('window_start', '<', windowStart).execute();
  }
}
