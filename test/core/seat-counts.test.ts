/**
 * The seats kept per write (storage's enrollments/seat-counts.ts): after any history of enrolling,
 * waiting, dropping, checking in, promotion by a raised limit and an import's batch, they equal
 * a recount of the enrollments, and an event reads them as its enrollment counts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { LecternError, type Lectern } from '@lectern/core';
import { recountSeats, type KyselyStorage } from '@lectern/storage';
import { sql, type Kysely } from 'kysely';
import { assertCountsMatchRecount } from '../helpers/kept-counts.ts';
import { startInMemoryLectern } from '../helpers/in-memory-lectern.ts';
import { up as addEventSeatCounts } from '../../packages/storage/src/migrations/0019-event-seat-counts.ts';

// the refusals of the enrollment rules, which leave every count as it was
const refusals = new Set(['full', 'waitlist_full', 'method_conflict', 'dropped', 'waitlisted', 'checked_in', 'not_checked_in']);

describe('seats kept per write', () => {
  let storage: KyselyStorage;
  let lectern: Lectern;
  before(async () => ({ storage, lectern } = await startInMemoryLectern()));
  after(() => lectern.close());

  it('equal a recount of the enrollments after any history', async () => {
    const ctx = lectern.context();
    const users: Array<{ public_id: string }> = [];
    for (let i = 0; i < 5; i++) users.push(await lectern.users.create(ctx, { email: `seat${i}@example.com`, name: `Seat ${i}` }));
    const events: Array<{ public_id: string }> = [];
    for (let i = 0; i < 2; i++) {
      events.push(
        await lectern.scheduledEvents.create(ctx, {
          name: `Seats ${i}`,
          is_local: true,
          is_online: true,
          enrollment_limit: 1,
          wait_list_limit: 2,
          online_enrollment_limit: 1,
          timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
        } as never),
      );
    }
    const method = fc.constantFrom('in_person', 'online');
    const operation = fc.oneof(
      fc.record({ op: fc.constant('enroll'), user: fc.nat(4), event: fc.nat(1), method, wait: fc.boolean() }),
      fc.record({ op: fc.constant('batch'), users: fc.subarray([0, 1, 2, 3, 4]), event: fc.nat(1), method }),
      fc.record({ op: fc.constantFrom('drop', 'checkin', 'undo-checkin'), pick: fc.nat() }),
      fc.record({ op: fc.constant('limit'), event: fc.nat(1), limit: fc.constantFrom(0, 1, 2, 3) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 25 }), async (ops) => {
        for (const op of ops) {
          try {
            if (op.op === 'enroll') {
              await lectern.enrollments.create(ctx, {
                user_id: users[op.user]!.public_id,
                event_id: events[op.event]!.public_id,
                attendance_method: op.method,
                accept_waitlist: op.wait,
              } as never);
            } else if (op.op === 'batch') {
              const items = op.users.map((user) => ({
                user_id: users[user]!.public_id,
                event_id: events[op.event]!.public_id,
                attendance_method: op.method,
                accept_waitlist: true,
              }));
              await storage.transaction((tx) => lectern.enrollments.enrollManyInTx(tx, ctx, items));
            } else if (op.op === 'limit') {
              await lectern.scheduledEvents.update(ctx, events[op.event]!.public_id, { enrollment_limit: op.limit } as never);
            } else {
              const live = (await lectern.enrollments.list(ctx, { page_size: '100' })).data;
              if (live.length === 0) continue;
              await lectern.enrollments.act(ctx, live[op.pick % live.length]!.public_id, op.op);
            }
          } catch (error) {
            if (!(error instanceof LecternError && refusals.has(error.code))) throw error;
          }
        }
        await assertCountsMatchRecount(storage);
        for (const event of events) {
          const read = await lectern.scheduledEvents.get(ctx, event.public_id);
          const recount = await sql<{ method: string; status: string; n: number }>`
            select attendance_method as method, status, count(*) as n from enrollments
            where event_id = (select id from content_items where public_id = ${event.public_id}) and status <> 'dropped'
            group by 1, 2`.execute(storage.db);
          const expected = { in_person: { enrolled: 0, waitlisted: 0 }, online: { enrolled: 0, waitlisted: 0 } };
          for (const row of recount.rows) expected[row.method as 'online'][row.status as 'enrolled'] = Number(row.n);
          assert.deepEqual(read.enrollment_counts, expected);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('start from the enrollments a database already holds when the migration runs', async () => {
    const ctx = lectern.context();
    const counted = await lectern.scheduledEvents.create(ctx, {
      name: 'Counted',
      is_local: true,
      enrollment_limit: 1,
      timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
    } as never);
    for (let i = 0; i < 3; i++) {
      const user = await lectern.users.create(ctx, { email: `counted${i}@example.com`, name: 'Counted' });
      await lectern.enrollments.create(ctx, {
        user_id: user.public_id,
        event_id: counted.public_id,
        attendance_method: 'in_person',
        accept_waitlist: true,
      });
    }
    const before = await lectern.scheduledEvents.get(ctx, counted.public_id);
    assert.deepEqual(before.enrollment_counts.in_person, { enrolled: 1, waitlisted: 2 });
    // as a database written before the migration: no kept seats; then the migration's own step runs
    // (later migrations exist, so it cannot be replayed through the migrator, which runs in order)
    await sql`drop table event_seat_counts`.execute(storage.db);
    await addEventSeatCounts(storage.db as unknown as Kysely<unknown>);
    await assertCountsMatchRecount(storage);
    assert.deepEqual((await lectern.scheduledEvents.get(ctx, counted.public_id)).enrollment_counts, before.enrollment_counts);
  });

  it('are rebuilt from the enrollments by recountSeats', async () => {
    await sql`update event_seat_counts set n = n + 7`.execute(storage.db);
    await sql`delete from event_seat_counts where status = 'waitlisted'`.execute(storage.db);
    await recountSeats(storage.db);
    await assertCountsMatchRecount(storage);
  });
});
