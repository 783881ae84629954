/**
 * Rows written in a batch of COPY_FROM_ROWS or more (by COPY: webhook events, audit entries,
 * notifications; as one JSON parameter: users, assignments) must be exactly the rows the one-row
 * INSERT writes, for every value COPY's text format or JSON gives a meaning to, inside the
 * caller's transaction: they roll back with it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createLectern, EventRecorder, randomIds, systemClock, type Storage } from '@lectern/core';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { openPostgresStorage } from './open-postgres-storage.ts';
import { copyText } from './copy-in.ts';
import { COPY_FROM_ROWS } from '../shared/insert-row.ts';

/** Every character COPY's text format reads specially, and the values that look like its markers. */
const AWKWARD = [
  'tab\there',
  'line\nbreak',
  'carriage\rreturn\r\n',
  'back\\slash',
  'ends with a backslash\\',
  '\\.',
  '\\.\n\\.',
  '\\N',
  'NULL',
  '',
  ' ',
  '"quoted", comma; semicolon',
  '{"json": "va\\"lue\\n", "n": [1, 2.5, null]}',
  'unicode: 🎓 ñ 中文 e\u0301 \u2028 \u00a0',
  'controls \u0001 \u001f \b \f \v',
  '\\t is not a tab, \\n not a newline',
];

describe('COPY text format', () => {
  it('escapes backslash, tab, newline and carriage return, and writes NULL as \\N', () => {
    assert.equal(copyText([['a\tb', 'c\nd', 'e\rf', 'g\\h', '', null, 3, -1.5]]), 'a\\tb\tc\\nd\te\\rf\tg\\\\h\t\t\\N\t3\t-1.5\n');
    assert.equal(copyText([['\\.'], ['\\N']]), '\\\\.\n\\\\N\n');
  });

  it('refuses values it cannot write faithfully', () => {
    assert.throws(() => copyText([[Number.NaN]]), /cannot store/);
    assert.throws(() => copyText([[{ a: 1 }]]), /cannot write/);
  });
});

describe('rows written by COPY on PostgreSQL', { skip: !postgresServerUrl && 'no PostgreSQL server' }, () => {
  const events = new EventRecorder(systemClock, randomIds);
  const batch = Math.max(COPY_FROM_ROWS, AWKWARD.length * 4);
  // each awkward value in turn, so a batch holds all of them
  const valueAt = (i: number) => AWKWARD[i % AWKWARD.length]!;
  const userRow = (i: number, way: string) => ({
    publicId: randomIds.uuid(),
    email: `${way}${i}@example.com`,
    name: valueAt(i),
    role: 'user' as const,
    // null, the empty string and text must stay apart
    employeeId: i % 3 === 0 ? null : valueAt(i + 1),
    managerId: null,
    isActive: i % 2 === 0,
    dateJoined: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
  });

  async function withDatabase(test: (storage: Storage, query: (text: string) => Promise<unknown[][]>) => Promise<void>) {
    const url = await freshPostgresDatabase();
    const storage = await openPostgresStorage({ url });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await test(storage, async (text) => (await client.query({ text, rowMode: 'array' })).rows as unknown[][]);
    } finally {
      await client.end();
      await storage.close();
    }
  }

  it('writes users, their events, audit entries and notifications as the one-row INSERTs do', async () => {
    await withDatabase(async (storage, query) => {
      const copied = Array.from({ length: batch }, (_, i) => userRow(i, 'copy'));
      const inserted = Array.from({ length: batch }, (_, i) => userRow(i, 'insert'));
      const payload = (i: number) => ({ n: i, text: valueAt(i), nested: { also: valueAt(i + 3) }, none: null });
      const audit = (i: number, way: string) => ({
        publicId: randomIds.uuid(),
        occurredAt: new Date(Date.UTC(2026, 0, 2, 0, 0, 0, i)).toISOString(),
        action: `${way}.${i}`,
        actorUserId: null,
        tokenId: null,
        requestId: i % 2 === 0 ? null : valueAt(i),
        resourceType: 'user',
        resourceId: valueAt(i + 5),
        changes: { name: { from: valueAt(i), to: valueAt(i + 1) } },
      });
      const notification = (userId: number, i: number, way: string) => ({
        kind: 'enrolled' as const,
        userId,
        subject: valueAt(i),
        payload: JSON.stringify(payload(i)),
        status: i % 2 === 0 ? ('pending' as const) : ('skipped' as const),
        unsubscribeKey: `${way}-${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 4, 0, 0, 0, i)).toISOString(),
        nextAttemptAt: i % 2 === 0 ? new Date(Date.UTC(2026, 0, 4, 0, 0, 0, i)).toISOString() : null,
      });
      let records: Awaited<ReturnType<Storage['users']['insertMany']>> = [];
      await storage.transaction(async (tx) => {
        records = await tx.users.insertMany(copied);
        await events.record(tx, ...copied.map((_, i) => ({ type: 'copy.happened', object: payload(i) })));
        await tx.audit.appendMany(copied.map((_, i) => audit(i, 'copy')));
        await tx.notifications.insertMany(records.map((record, i) => notification(record.id, i, 'copy')));
      });
      for (const [i, row] of inserted.entries()) {
        await storage.transaction(async (tx) => {
          await tx.users.insert(row);
          await events.record(tx, { type: 'insert.happened', object: payload(i) });
          await tx.audit.appendMany([audit(i, 'insert')]);
          await tx.notifications.insertMany([notification((await tx.users.findByPublicId(row.publicId))!.id, i, 'insert')]);
        });
      }
      // answered in the order given, with the values given
      assert.deepEqual(
        records.map((record) => [record.view.public_id, record.view.name, record.view.employee_id]),
        copied.map((row) => [row.publicId, row.name, row.employeeId]),
      );
      const columns = `name, employee_id, role, is_active, date_joined, name_folded, modified`;
      const users = (way: string) => query(`select ${columns} from users where email like '${way}%' order by date_joined`);
      const copiedUsers = await users('copy');
      assert.equal(copiedUsers.length, batch);
      assert.deepEqual(copiedUsers, await users('insert'));
      assert.deepEqual(
        copiedUsers.map((row) => [row[0], row[1]]),
        copied.map((row) => [row.name, row.employeeId]),
      );

      const outbox = await storage.outbox.readAfter(0, batch * 3);
      const objects = (type: string) => outbox.filter((entry) => entry.event.type === type).map((entry) => entry.event.data.object);
      // in the order recorded, each payload as given
      assert.deepEqual(
        objects('copy.happened'),
        copied.map((_, i) => payload(i)),
      );
      assert.deepEqual(
        objects('insert.happened'),
        copied.map((_, i) => payload(i)),
      );

      const entries = (way: string) =>
        query(
          `select occurred_at, request_id, resource_id, changes from audit_log_recent where action like '${way}.%' order by occurred_at`,
        );
      const copiedEntries = await entries('copy');
      assert.equal(copiedEntries.length, batch);
      assert.deepEqual(copiedEntries, await entries('insert'));
      assert.deepEqual(JSON.parse(copiedEntries[1]![3] as string), audit(1, 'copy').changes);

      const notifications = (way: string) =>
        query(
          `select n.kind, n.subject, n.payload, n.status, n.attempts, n.next_attempt_at, split_part(n.unsubscribe_key, '-', 2), n.created_at, n.sent_at
           from notifications n join users u on u.id = n.user_id where u.email like '${way}%' order by n.created_at`,
        );
      const copiedNotifications = await notifications('copy');
      assert.equal(copiedNotifications.length, batch);
      assert.deepEqual(copiedNotifications, await notifications('insert'));
      assert.deepEqual(JSON.parse(copiedNotifications[2]![2] as string), payload(2));
    });
  });

  it('rolls back with the transaction, fails a batch on a unique index as the INSERT does, and takes the next', async () => {
    await withDatabase(async (storage, query) => {
      const rows = Array.from({ length: batch }, (_, i) => userRow(i, 'gone'));
      await assert.rejects(
        storage.transaction(async (tx) => {
          await tx.users.insertMany(rows);
          await events.record(tx, ...rows.map((_, i) => ({ type: 'gone.happened', object: { i } })));
          throw new Error('the chunk fails');
        }),
        /the chunk fails/,
      );
      assert.deepEqual(await query('select count(*)::int from users'), [[0]]);
      assert.deepEqual(await query('select count(*)::int from outbox_events'), [[0]]);

      // a repeated email fails the whole batch, as the multi-row INSERT's unique index does
      const twice = Array.from({ length: batch }, (_, i) => userRow(i, 'twice'));
      twice[batch - 1] = { ...twice[batch - 1]!, email: twice[0]!.email };
      await assert.rejects(
        storage.transaction((tx) => tx.users.insertMany(twice)),
        /duplicate key|unique/,
      );
      assert.deepEqual(await query('select count(*)::int from users'), [[0]]);

      // and the next batch on the same connections still works
      const after = await storage.transaction((tx) => tx.users.insertMany(rows));
      assert.equal(after.length, batch);
      assert.deepEqual(await query('select count(*)::int from users'), [[batch]]);
    });
  });

  it('leaves out assignments whose pair is already live, as the INSERT … ON CONFLICT DO NOTHING does', async () => {
    await withDatabase(async (storage, query) => {
      const lectern = createLectern({ storage });
      const ctx = lectern.context();
      const item = await lectern.content.create(ctx, 'article', { name: 'Course' });
      const contentId = (await storage.content.idsByPublicIds([item.public_id])).get(item.public_id)!;
      const users = await storage.transaction((tx) => tx.users.insertMany(Array.from({ length: batch }, (_, i) => userRow(i, 'learner'))));
      const row = (userId: number, i: number) => ({
        publicId: randomIds.uuid(),
        userId,
        contentId,
        dueDate: i % 2 === 0 ? null : '2027-06-30',
        expiresAt: null,
        enrollmentId: null,
        created: new Date(Date.UTC(2026, 0, 3, 0, 0, 0, i)).toISOString(),
      });
      // every third user is assigned first, one at a time (the one-row INSERT)
      const first = users.filter((_, i) => i % 3 === 0);
      for (const [i, user] of first.entries()) await storage.transaction((tx) => tx.assignments.insert(row(user.id, i)));
      const rows = users.map((user, i) => row(user.id, i));
      const answered = await storage.transaction((tx) => tx.assignments.insertMissing(rows));
      assert.deepEqual(
        answered.map((record) => record?.data.public_id),
        rows.map((written, i) => (i % 3 === 0 ? undefined : written.publicId)),
      );
      assert.deepEqual(await query('select count(*)::int, count(distinct user_id)::int from assignments'), [[batch, batch]]);
      assert.deepEqual(await query(`select due_date, state, progress from assignments where public_id = '${rows[1]!.publicId}'`), [
        ['2027-06-30', 'not_started', 0],
      ]);
    });
  });
});
