import { sql, type Kysely } from 'kysely';
import type { CountedCredentials, RateCounterStore, TokenWindows } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { toCredentials } from '../auth/token-repository.ts';
import { preparedLookup, preparedQuery } from '../shared/prepared-query.ts';
import { coalescer } from '../shared/coalescer.ts';
import { countsOfTokenCalls, type CountedRow, type TokenCall, type TokenCallsRow } from './token-calls.ts';

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
  CountedRow,
  [tokenHash: string, now: string, tokenPrefix: string, userPrefix: string, windowStart: number, tokenLimit: number]
>(6, (db: Kysely<Database>, tokenHash, now, tokenPrefix, userPrefix, windowStart, tokenLimit) => ({
  compile: () =>
    sql<CountedRow>`with c as (
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

/**
 * countToken for several calls at once (coalesced, see the repository): each distinct token once,
 * with how many of the calls carry it (`n`), counted by `n` in its window and, for the calls its
 * limit allows, in its user's. Tokens of one user add to the user's window in one row. What each
 * call's counts were, as if the calls had run one after the other in their order, is worked out
 * from the windows' totals (token-calls.ts).
 */
const countTokens = preparedQuery<
  TokenCallsRow,
  [
    tokenHashes: readonly string[],
    calls: readonly number[],
    now: string,
    tokenPrefix: string,
    userPrefix: string,
    windowStart: number,
    tokenLimit: number,
  ]
>(7, (db: Kysely<Database>, tokenHashes, calls, now, tokenPrefix, userPrefix, windowStart, tokenLimit) => ({
  compile: () =>
    sql<TokenCallsRow>`with i as (
        select * from unnest(cast(${tokenHashes} as text[]), cast(${calls} as bigint[])) as i(token_hash, n)),
      c as (
        select i.token_hash, i.n, t.id, t.scopes, t.expires_at, u.id as user_id, u.public_id, u.role, u.is_active
        from i join api_tokens t on t.token_hash = i.token_hash join users u on u.id = t.user_id
        where t.revoked_at is null),
      live as (
        select id, user_id, n from c where c.is_active <> 0 and (c.expires_at is null or c.expires_at > ${now})),
      f as (
        insert into rate_limit_windows (key, window_start, hits)
        select cast(${tokenPrefix} as text) || live.id, cast(${windowStart} as bigint), live.n from live
        on conflict (key, window_start) do update set hits = rate_limit_windows.hits + excluded.hits
        returning key, hits),
      a as (
        select live.user_id, cast(sum(least(live.n, greatest(0, cast(${tokenLimit} as bigint) - (f.hits - live.n)))) as bigint) as allowed
        from live join f on f.key = cast(${tokenPrefix} as text) || live.id
        group by live.user_id),
      s as (
        insert into rate_limit_windows (key, window_start, hits)
        select cast(${userPrefix} as text) || a.user_id, cast(${windowStart} as bigint), a.allowed from a where a.allowed > 0
        on conflict (key, window_start) do update set hits = rate_limit_windows.hits + excluded.hits
        returning key, hits)
      select c.*, f.hits as token_hits, s.hits as user_hits
      from c left join f on f.key = cast(${tokenPrefix} as text) || c.id
      left join s on s.key = cast(${userPrefix} as text) || c.user_id`.compile(db),
}));

const readCount = preparedLookup<{ hits: number }, [key: string, windowStart: number]>(2, (db: Kysely<Database>, key, windowStart) =>
  db
    .selectFrom('rate_limit_windows')
    .select('hits')
    .where('key', '=', key)
    .where('window_start', '=', sql<number>`cast(${windowStart} as bigint)`),
);

/** token calls one statement carries at most, and such statements on their way at once */
const MOST_TOKEN_CALLS = 200;
const TOKEN_STATEMENTS_IN_FLIGHT = 2;

export class RateCounterRepository implements RateCounterStore {
  private hits = 0;
  private readonly countCall: (call: TokenCall) => Promise<CountedRow | undefined>;

  constructor(private readonly db: Kysely<Database>) {
    const one = async (call: TokenCall) => {
      const { tokenPrefix, userPrefix, windowStart, tokenLimit } = call.windows;
      return countToken(db, call.tokenHash, call.now, tokenPrefix, userPrefix, windowStart, tokenLimit);
    };
    // every authenticated request runs this, each a round trip: the requests that come while one
    // is out go together. Counters are shared only on PostgreSQL (KyselyStorage.sharedRateCounters),
    // whose data-modifying WITHs and arrays these statements use
    this.countCall = coalescer({
      one,
      many: (calls) =>
        countsOfTokenCalls(calls, async (hashes, counts, now, w) =>
          countTokens(db, hashes, counts, now, w.tokenPrefix, w.userPrefix, w.windowStart, w.tokenLimit),
        ),
      inFlight: TOKEN_STATEMENTS_IN_FLIGHT,
      most: MOST_TOKEN_CALLS,
    });
  }

  async hit(key: string, windowStart: number): Promise<number> {
    const row = await countHit(this.db, key, windowStart);
    await this.counted(windowStart);
    return Number(row!.hits);
  }

  async hitByToken(tokenHash: string, now: string, windows: TokenWindows): Promise<CountedCredentials | undefined> {
    const row = await this.countCall({ tokenHash, now, windows });
    if (!row) return undefined;
    const credentials = toCredentials(row);
    if (row.token_hits === null) return { credentials, hits: null };
    await this.counted(windows.windowStart);
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
