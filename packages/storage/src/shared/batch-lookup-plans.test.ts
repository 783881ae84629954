/**
 * The plans of an import batch's statements by many keys (`valuesList`): users by email, live
 * assignments by user and content, and active enrollments by event and user. Each must read the
 * list of keys and seek the table's index once per key. A scan of the table per batch makes an
 * import slow down as the table grows: at a million assignments it was most of an enrollments import.
 *
 * Lectern gathers no planner statistics on SQLite (docs/scaling.md), so these plans, read on a
 * small database, are the ones a large one gets.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { KyselyStorage } from '../kysely-storage.ts';
import { openSqliteDatabase, openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { recordPlans, type PlanRecorder } from '../../../../test/helpers/sqlite-plans.ts';

/** An import batch's size: SQLite's planner weighs the number of keys, and a few keys plan well either way. */
const BATCH = 500;

describe('batch lookup plans (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-batch-plans-'));
  const file = join(dir, 'plans.db');
  let raw: BetterSqlite3.Database;
  let plans: PlanRecorder;
  let storage: KyselyStorage;

  before(async () => {
    await (await openSqliteStorage({ file })).close();
    raw = openSqliteDatabase({ file });
    raw.exec(`
      INSERT INTO users (public_id, email, email_lower, name, role, is_active, date_joined, modified)
        VALUES ('00000000-0000-4000-8000-000000000001', 'Ada@Example.com', 'ada@example.com', 'Ada', 'user', 1,
                '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
    `);
    plans = recordPlans(raw);
    storage = new KyselyStorage(plans.db);
  });
  after(async () => {
    await plans.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The plan of each statement `lookup` sends, one line per step. */
  async function plansOf(lookup: () => Promise<unknown>): Promise<string[]> {
    plans.clear();
    await lookup();
    return plans.sent.map((query) => plans.planOf(query).join('\n'));
  }

  /** Reads the keys, then seeks the table (`alias`) through `using` for each: no scan of it, no automatic index. */
  function assertSeeks(plans: string[], alias: string, using: string) {
    assert.equal(plans.length, 1, plans.join('\n---\n'));
    const plan = plans[0]!;
    assert.match(plan, new RegExp(`SEARCH ${alias} USING ${using}`), plan);
    assert.doesNotMatch(plan, new RegExp(`SCAN ${alias}\\b`), plan);
    assert.doesNotMatch(plan, /AUTOMATIC/, plan);
  }

  it('finds users by email through the unique email_lower index', async () => {
    const emails = ['ada@example.com', ...Array.from({ length: BATCH - 1 }, (_, i) => `U${i}@Example.com`)];
    assertSeeks(await plansOf(() => storage.users.byEmails(emails)), 'u', '(COVERING )?INDEX sqlite_autoindex_users_\\d');
    assert.deepEqual([...(await storage.users.byEmails(emails)).keys()], ['ada@example.com']);
  });

  it('finds live assignments by user and content through the pair index', async () => {
    const pairs = Array.from({ length: BATCH }, (_, i) => ({ userId: i + 1, contentId: 7 }));
    assertSeeks(await plansOf(() => storage.assignments.livePublicIds(pairs)), 'a', 'INDEX assignments_pair_idx');
  });

  it('finds an import’s earlier rows by identity through the identity index', async () => {
    const identities = Array.from({ length: BATCH }, (_, i) => `identity-${i}`);
    assertSeeks(
      await plansOf(() => storage.imports.firstRowsOf(1, identities)),
      'import_results',
      '(COVERING )?INDEX import_results_identity_idx',
    );
  });

  it('finds active enrollments by event and user through the active index', async () => {
    const pairs = Array.from({ length: BATCH }, (_, i) => ({ eventId: 7, userId: i + 1 }));
    assertSeeks(await plansOf(() => storage.enrollments.activePairs(pairs)), 'e', 'INDEX enrollments_active_idx');
  });
});
