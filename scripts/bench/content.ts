/**
 * Content list benchmark: seeds 100 000 content items (with tags, access groups, channels, hidden
 * and archived ones) straight through storage, then times filtered, ordered pages of 100 through
 * the service, as an admin and as a role-user learner, and prints each query's SQLite plan.
 *
 *   node --conditions=source --import tsx scripts/bench/content.ts [--items 100000] [--runs 7]
 */
import { parseArgs } from 'node:util';
import { Kysely, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import { createLectern, grantedScopes, type Actor } from '@lectern/core';
import { KyselyStorage, openSqliteDatabase, type Database } from '@lectern/storage';
import { benchDatabase } from './_database.ts';
import { report } from './_report.ts';

const { values: flags } = parseArgs({ options: { items: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' } } });
const ITEMS = Number(flags.items);
const RUNS = Number(flags.runs);
const TYPES = ['article', 'video', 'course', 'guide', 'link', 'track', 'scheduled_track', 'collection'];
const TAGS = 200;
const GROUPS = 20;
const CHANNELS = 10;
const BATCH = 400;

const database = await benchDatabase('content');
const storage = await database.open();
const lectern = createLectern({ storage });
const db = storage.db;

// Deterministic pseudo-random numbers, so every run seeds the same catalogue.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (n: number) => Math.floor(random() * n);
const iso = (offsetSeconds: number) => new Date(Date.UTC(2024, 0, 1) + offsetSeconds * 1000).toISOString();

async function seedCatalogue(): Promise<{ learner: Actor; groupId: string; channelId: string }> {
  const started = performance.now();
  const admin = await lectern.users.create(lectern.context(), { email: 'bench-learner@example.com', name: 'Learner' });
  const learnerId = (await lectern.users.findByEmail(admin.email))!.id;
  await db.transaction().execute(async (trx) => {
    const groupIds: number[] = [];
    for (let g = 0; g < GROUPS; g++) {
      const row = await trx
        .insertInto('groups')
        .values({ public_id: crypto.randomUUID(), name: `Group ${g}`, source: 'native', created: iso(0), modified: iso(0) })
        .returning('id')
        .executeTakeFirstOrThrow();
      groupIds.push(row.id);
    }
    // the learner belongs to two of the twenty groups; 2000 other people fill the membership table
    for (const groupId of groupIds.slice(0, 2)) {
      await trx
        .insertInto('group_users')
        .values({ group_id: groupId, user_id: learnerId, relation: 'member', created: iso(0) })
        .execute();
    }
    for (let u = 0; u < 2000; u++) {
      const email = `member-${u}@example.com`;
      const user = await trx
        .insertInto('users')
        .values({
          public_id: crypto.randomUUID(),
          email,
          email_lower: email,
          name: `Member ${u}`,
          name_folded: `member ${u}`,
          role: 'user',
          employee_id: null,
          is_active: 1,
          manager_id: null,
          date_joined: iso(0),
          modified: iso(0),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const memberships = [...new Set([groupIds[pick(GROUPS)]!, groupIds[pick(GROUPS)]!])];
      await trx
        .insertInto('group_users')
        .values(memberships.map((groupId) => ({ group_id: groupId, user_id: user.id, relation: 'member', created: iso(0) })))
        .execute();
    }
    const channelIds: number[] = [];
    for (let c = 0; c < CHANNELS; c++) {
      const row = await trx
        .insertInto('channels')
        .values({ public_id: crypto.randomUUID(), name: `Channel ${c}`, created: iso(0), modified: iso(0) })
        .returning('id')
        .executeTakeFirstOrThrow();
      channelIds.push(row.id);
    }
    await trx
      .insertInto('tags')
      .values(Array.from({ length: TAGS }, (_, t) => ({ name: `tag-${t}` })))
      .execute();
    const tagIds = (await trx.selectFrom('tags').select('id').orderBy('id').execute()).map((row) => row.id);

    for (let start = 0; start < ITEMS; start += BATCH) {
      const count = Math.min(BATCH, ITEMS - start);
      const rows = Array.from({ length: count }, (_, k) => {
        const i = start + k;
        const name = `Item ${i} ${['intro', 'advanced', 'primer', 'deep dive'][pick(4)]}`;
        return {
          public_id: crypto.randomUUID(),
          content_type: TYPES[i % TYPES.length]!,
          name,
          // what the repository writes with every name (the search index holds it)
          name_folded: name.toLowerCase(),
          description: '',
          is_archived: random() < 0.05 ? 1 : 0,
          is_hidden: random() < 0.05 ? 1 : 0,
          is_completable: 1,
          is_self_assignable: 1,
          duration_minutes: pick(120),
          channel_id: random() < 0.7 ? channelIds[pick(CHANNELS)]! : null,
          url: null,
          media_asset_id: null,
          media_status: 'none',
          starts_on: null,
          ends_on: null,
          created: iso(i * 60),
          modified: iso(i * 60 + pick(10_000_000)),
        };
      });
      const ids = (await trx.insertInto('content_items').values(rows).returning('id').execute()).map((row) => row.id);
      const tagRows = ids.flatMap((id) => {
        const chosen = new Set([tagIds[pick(TAGS)]!, tagIds[pick(TAGS)]!, tagIds[pick(TAGS)]!]);
        return [...chosen].map((tagId) => ({ content_id: id, tag_id: tagId }));
      });
      await trx.insertInto('content_tags').values(tagRows).execute();
      const groupRows = ids.filter(() => random() < 0.2).map((id) => ({ content_id: id, group_id: groupIds[pick(GROUPS)]! }));
      if (groupRows.length > 0) await trx.insertInto('content_groups').values(groupRows).execute();
    }
  });
  // Lectern gathers no planner statistics on SQLite (docs/scaling.md), so neither does the benchmark;
  // PostgreSQL's autovacuum would gather them, and an operator runs this after a bulk load
  if (database.dialect === 'postgres') await sql`vacuum (analyze)`.execute(db);
  const group = await db.selectFrom('groups').select('public_id').orderBy('id').executeTakeFirstOrThrow();
  const channel = await db.selectFrom('channels').select('public_id').orderBy('id').executeTakeFirstOrThrow();
  console.log(
    `seeded ${ITEMS} items, ${TAGS} tags, ${GROUPS} groups, ${CHANNELS} channels in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return {
    learner: { kind: 'user', userId: learnerId, publicId: admin.public_id, role: 'user', scopes: new Set(grantedScopes('user')) },
    groupId: group.public_id,
    channelId: channel.public_id,
  };
}

const { learner, groupId, channelId } = await seedCatalogue();

const cases: Array<[string, Record<string, string>]> = [
  ['no filter, -created', { ordering: '-created' }],
  ['content_type=video, -created', { content_type: 'video', ordering: '-created' }],
  ['content_type=video,link, name', { content_type: 'video,link', ordering: 'name' }],
  ['tag=tag-7, -created', { tag: 'tag-7', ordering: '-created' }],
  ['tag_all=tag-7,tag-8, -modified', { tag_all: 'tag-7,tag-8', ordering: '-modified' }],
  ['group=<g>, -created', { group: groupId, ordering: '-created' }],
  ['channel=<c>, name', { channel: channelId, ordering: 'name' }],
  ['is_archived=false, -modified', { is_archived: 'false', ordering: '-modified' }],
  ['is_hidden=true, name', { is_hidden: 'true', ordering: 'name' }],
  ['created range (10 days), -created', { created__gte: '2024-01-20', created__lte: '2024-01-29', ordering: '-created' }],
  ['search="deep dive", -created', { search: 'deep dive', ordering: '-created' }],
  ['no filter, -created, page 500', { ordering: '-created', page: '500' }],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time(actor: Actor | undefined, params: Record<string, string>): Promise<{ ms: number; total: number; rows: number }> {
  const ctx = lectern.context(actor);
  const run = () => lectern.content.list(ctx, { ...params, page_size: '100' });
  await run();
  const samples: number[] = [];
  let result = await run();
  for (let r = 0; r < RUNS; r++) {
    const started = performance.now();
    result = await run();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), total: result.meta.total_count, rows: result.data.length };
}

console.log(`\nmedian of ${RUNS} runs, page_size=100 (count + page + groups/tags/items for the page), through the service\n`);
for (const [label, params] of cases) {
  const admin = await time(undefined, params);
  const user = await time(learner, params);
  // a search answers within 10 ms, any other list within 100 ms
  const target = { below: label.startsWith('search') ? 10 : 100 };
  report(`${label}, admin`, admin.ms, 'ms', `${admin.total} rows`, target);
  report(`${label}, learner`, user.ms, 'ms', `${user.total} rows`, target);
}

await lectern.close();
if (database.dialect !== 'sqlite') {
  console.log('\n(the query plans below are printed for SQLite only)');
  await database.dispose();
  process.exit(0);
}

// The plans: the same service calls through a logging connection, then EXPLAIN QUERY PLAN on each.
const captured: CompiledQuery[] = [];
const raw = openSqliteDatabase({ file: database.target });
const logging = new Kysely<Database>({
  dialect: new SqliteDialect({ database: raw }),
  log: (event) => {
    if (event.level === 'query' && /from "content_items" as "ci"/.test(event.query.sql)) captured.push(event.query);
  },
});
const planned = createLectern({ storage: new KyselyStorage(logging) });
for (const [label, params] of [cases[0]!, cases[1]!, cases[3]!, cases[5]!, cases[6]!]) {
  captured.length = 0;
  await planned.content.list(planned.context(learner), { ...params, page_size: '100' });
  console.log(`\nplan (learner) for ${label}:`);
  for (const query of captured) {
    console.log(`  ${query.sql.slice(0, 110)}…`);
    const plan = raw.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{ detail: string }>;
    for (const step of plan) console.log(`      ${step.detail}`);
  }
}

await planned.close();
await database.dispose();
