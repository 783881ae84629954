/**
 * The reminder sweep's budget (config `mail.remindersPerSweep`): a sweep records at most that many
 * reminders, and the next one follows a second later until none are owed, each assignment
 * reminded once. Core in process on SQLite, sending through a real SMTP server on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLectern, type Lectern } from '@lectern/core';
import { openSqliteStorage, type KyselyStorage } from '@lectern/storage';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';

const OWED = 5;
const BUDGET = 2;

describe('the reminder sweep, with more reminders owed than one sweep records', () => {
  let sink: SmtpSink;
  let storage: KyselyStorage;
  let lectern: Lectern;
  before(async () => {
    sink = await startSmtpSink();
    storage = await openSqliteStorage({ file: ':memory:' });
    lectern = createLectern({
      storage,
      // no periodic sweep within the test: only the first and its catch-ups run
      config: { mail: { smtpUrl: sink.url, remindersPerSweep: BUDGET, reminderSweepSeconds: 3600 } },
    });
    const ctx = lectern.context();
    const learner = await lectern.users.create(ctx, { email: 'late@example.com', name: 'Late Learner' });
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    for (let i = 0; i < OWED; i++) {
      const course = await lectern.content.create(ctx, 'article', { name: `Course ${i}` });
      await lectern.assignments.create(ctx, { user_id: learner.public_id, content_item_id: course.public_id, due_date: yesterday });
    }
  });
  after(async () => {
    await lectern.close();
    await sink.close();
  });

  const overdue = async () =>
    (await storage.db.selectFrom('notifications').select('payload').where('kind', '=', 'assignment_overdue').execute()).map(
      (row) => (JSON.parse(row.payload) as { assignment: { public_id: string } }).assignment.public_id,
    );
  const waitFor = async (check: (ids: string[]) => boolean): Promise<string[]> => {
    for (let tries = 0; tries < 500; tries++) {
      const ids = await overdue();
      if (check(ids)) return ids;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`reminders recorded: ${(await overdue()).length}`);
  };

  it('records the budget in the first sweep, the rest in the sweeps that follow, each once', async () => {
    await lectern.start({ deliveries: false, mail: true });
    // the first sweep runs at start; the next only a second after it ends
    assert.equal((await waitFor((ids) => ids.length > 0)).length, BUDGET);
    const all = await waitFor((ids) => ids.length >= OWED);
    assert.equal(all.length, OWED);
    assert.equal(new Set(all).size, OWED, 'each assignment reminded once');
    await sink.waitFor((message) => message.subject === 'Overdue: Course 4');
  });
});
