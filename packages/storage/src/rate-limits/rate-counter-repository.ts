import { sql, type Kysely } from 'kysely';
import type { RateCounterStore } from '@lectern/core/ports';
import type { Database } from '../schema.ts';

/** Ended windows are dropped once per this many hits: one cheap DELETE amortised over many requests. */
const SWEEP_EVERY = 1000;

export class RateCounterRepository implements RateCounterStore {
  private hits = 0;

  constructor(private readonly db: Kysely<Database>) {}

  async hit(key: string, windowStart: number): Promise<number> {
    // one statement: concurrent hits of the same key on several servers serialise on its row
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ key, window_start: windowStart, hits: 1 })
      .onConflict((conflict) => conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`rate_limit_windows.hits + 1` }))
      .returning('hits')
      .executeTakeFirstOrThrow();
    if (++this.hits % SWEEP_EVERY === 0) await this.db.deleteFrom('rate_limit_windows').where('window_start', '<', windowStart).execute();
    return Number(row.hits);
  }
}
