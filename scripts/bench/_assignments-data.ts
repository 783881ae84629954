/**
 * The assignments benchmark's data set: 1 000 000 assignments over 50 000 users and 1 000 content
 * items, with 20 groups of 500 members, written straight to the tables (the point is reading them)
 * and the counts the repository keeps per write computed once. Seeded once and cached
 * (`seededDatabase`): a change to this file seeds again.
 */
import { sql } from 'kysely';
import { createLectern, randomIds } from '@lectern/core';
import { recountAssignments } from '@lectern/storage';
import type { BenchDatabase } from './_database.ts';

export const ASSIGNMENTS = Number(process.env.BENCH_ASSIGNMENTS ?? 1_000_000);
const USERS = 50_000;
const CONTENT = 1_000;

export interface AssignmentsDataSet {
  token: string;
  /** an assignment in the middle of the table: its user, the user's email and its content item */
  probe: { user: string; email: string; content: string };
  /** the public id of a group of 500 members */
  group: string;
}

export async function seedAssignments(database: BenchDatabase): Promise<AssignmentsDataSet> {
  const storage = await database.open();
  const lectern = createLectern({ storage });
  const token = (await lectern.bootstrapAdmin({ email: 'bench@example.com', name: 'Bench' }))!.token.token;
  const db = storage.db;
  const seededAt = Date.now();
  const epoch = Date.UTC(2025, 0, 1);
  const at = (ms: number) => new Date(epoch + ms).toISOString();

  // a small deterministic generator, so runs seed the same data
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < USERS; start += 1_000) {
      const rows = [];
      for (let i = start; i < start + 1_000; i++) {
        rows.push({
          public_id: randomIds.uuid(),
          email: `u${i}@example.com`,
          email_lower: `u${i}@example.com`,
          name: `User ${i}`,
          name_folded: `user ${i}`,
          role: 'user',
          employee_id: null,
          is_active: 1,
          manager_id: null,
          date_joined: at(i),
          modified: at(i),
        });
      }
      await trx.insertInto('users').values(rows).execute();
    }
    const types = ['article', 'video', 'course', 'guide', 'link'];
    const content = [];
    for (let i = 0; i < CONTENT; i++) {
      content.push({
        public_id: randomIds.uuid(),
        content_type: types[i % types.length]!,
        name: `Content ${i}`,
        name_folded: `content ${i}`,
        description: '',
        is_hidden: 0,
        is_completable: 1,
        is_self_assignable: 1,
        duration_minutes: 10,
        channel_id: null,
        url: null,
        media_asset_id: null,
        media_status: 'none',
        starts_on: null,
        ends_on: null,
        created: at(i),
        modified: at(i),
      });
    }
    for (let i = 0; i < content.length; i += 500)
      await trx
        .insertInto('content_items')
        .values(content.slice(i, i + 500))
        .execute();
    for (let g = 0; g < 20; g++) {
      const { id } = await trx
        .insertInto('groups')
        .values({ public_id: randomIds.uuid(), name: `Group ${g}`, source: 'native', created: at(g), modified: at(g), deleted_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const members = Array.from({ length: 500 }, (_, k) => ({
        group_id: id,
        user_id: 2 + g * 500 + k,
        relation: 'member',
        created: at(0),
      }));
      await trx.insertInto('group_users').values(members).execute();
    }
  });

  // every user gets up to 20 distinct items (user i: items (i*7 + k*50) mod 1000), so pairs stay unique
  const states = ['not_started', 'in_progress', 'completed', 'dropped', 'exempted'];
  const weights = [0.3, 0.25, 0.35, 0.05, 0.05];
  const pickState = () => {
    let r = random();
    for (let i = 0; i < states.length; i++) if ((r -= weights[i]!) < 0) return states[i]!;
    return states[0]!;
  };
  // a whole number of items per user: a fraction (fewer assignments than users, or a count that is
  // not a multiple of them) made fractional user and content ids, which no row has
  const perUser = Math.max(1, Math.ceil(ASSIGNMENTS / USERS));
  if (perUser > CONTENT / 50) throw new Error(`at most ${(USERS * CONTENT) / 50} assignments keep each user's items distinct`);
  console.log(`users, content and groups in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
  for (let start = 0; start < ASSIGNMENTS; start += 100_000) {
    await db.transaction().execute(async (trx) => {
      for (let batch = start; batch < Math.min(start + 100_000, ASSIGNMENTS); batch += 800) {
        const rows = [];
        for (let n = batch; n < Math.min(batch + 800, ASSIGNMENTS); n++) {
          const userIndex = Math.floor(n / perUser);
          const k = n % perUser;
          const state = pickState();
          const done = state === 'completed';
          const rating = random() < 0.2 && state !== 'not_started' ? 1 + Math.floor(random() * 5) : null;
          rows.push({
            public_id: randomIds.uuid(),
            user_id: 2 + userIndex,
            content_id: 1 + ((userIndex * 7 + k * 50) % CONTENT),
            enrollment_id: null,
            state,
            progress: done ? 1 : state === 'in_progress' ? 0.5 : 0,
            progress_before_completion: done ? 0.5 : null,
            score: null,
            is_success: done && random() < 0.5 ? (random() < 0.8 ? 1 : 0) : null,
            due_date: random() < 0.5 ? at(random() * 800 * 86_400_000).slice(0, 10) : null,
            expires_at: null,
            started_at: state === 'not_started' ? null : at(n * 30_000),
            completed_datetime: done ? at(n * 30_000 + 1) : null,
            dropped_at: state === 'dropped' ? at(n * 30_000 + 1) : null,
            exempted_at: state === 'exempted' ? at(n * 30_000 + 1) : null,
            feedback_rating: rating,
            feedback_text: rating !== null && random() < 0.3 ? 'Helpful' : null,
            drop_reason: null,
            attempt: 1,
            created: at(n * 30_000),
            modified: at(n * 30_000),
            deleted_at: null,
          });
        }
        await trx.insertInto('assignments').values(rows).execute();
      }
    });
  }
  // the derived counts the repository keeps per write, computed once for the seeded rows
  await recountAssignments(db);
  const probe = await db
    .selectFrom('assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('content_items as c', 'c.id', 'a.content_id')
    .select(['u.public_id as user', 'u.email', 'c.public_id as content'])
    .where('a.id', '=', Math.floor(ASSIGNMENTS / 2) + 7)
    .executeTakeFirstOrThrow();
  const group = await db.selectFrom('groups').select('public_id').where('name', '=', 'Group 3').executeTakeFirstOrThrow();
  // PostgreSQL plans from statistics, and answers counts from indexes alone only where the visibility
  // map says a page is all visible; autovacuum would see to both later, an operator does it after a bulk load
  if (database.dialect === 'postgres') await sql`vacuum (analyze)`.execute(db);
  await lectern.close();
  return { token, probe, group: group.public_id };
}
