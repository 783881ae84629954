/**
 * One run of the reminder sweep (docs/notifications.md): "due soon" for assignments due from today
 * to `mail.reminderDays` ahead, "overdue" for those due before today. Each assignment owed one gets
 * a marker and its message in the same transaction, so it is reminded once however many servers
 * sweep. A run records at most `mail.remindersPerSweep`: reminders turned on over a large
 * database owe a backlog, which then goes out over several short runs (the mail worker follows a
 * spent run with the next one a second later) instead of one long one.
 */
import type { LecternConfig } from '../config.ts';
import type { ReminderPosition } from '../ports/notification-store.ts';
import type { Storage } from '../ports/storage.ts';
import { nowIso, type Clock } from '../shared/clock.ts';
import { NotificationRecorder } from './notification-recorder.ts';
import type { AssignmentPayload } from './notification.ts';

/** Assignments one transaction marks at most. */
const REMINDER_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface ReminderSweepDeps {
  storage: Storage;
  clock: Clock;
  config: Pick<LecternConfig, 'mail'>;
  /** the mail worker's; one is made from the config when not given */
  recorder?: NotificationRecorder;
}

type ReminderKind = AssignmentPayload['kind'] & ('assignment_due' | 'assignment_overdue');

/**
 * Answers the reminders recorded, and `spent` when the run stopped at its budget, so that more
 * may be owed. `stopped` is asked between transactions: a server stopping ends the run there.
 */
export async function sweepReminders(
  deps: ReminderSweepDeps,
  stopped: () => boolean = () => false,
): Promise<{ recorded: number; spent: boolean }> {
  const recorder = deps.recorder ?? new NotificationRecorder(deps.clock, deps.config);
  const nowMs = deps.clock.now().getTime();
  const { reminderDays, remindersPerSweep: budget } = deps.config.mail;
  const remind = (kind: ReminderKind, from: string | null, to: string, limit: number) =>
    remindOfKind(deps.storage, deps.clock, recorder, { kind, from, to, limit }, stopped);
  const due = await remind('assignment_due', dateOf(nowMs), dateOf(nowMs + reminderDays * DAY_MS), budget);
  const overdue = due < budget && !stopped() ? await remind('assignment_overdue', null, dateOf(nowMs - DAY_MS), budget - due) : 0;
  return { recorded: due + overdue, spent: due + overdue >= budget };
}

/** Marks and records up to `limit` reminders of one kind, a batch a transaction; answers how many. */
async function remindOfKind(
  storage: Storage,
  clock: Clock,
  recorder: NotificationRecorder,
  range: { kind: ReminderKind; from: string | null; to: string; limit: number },
  stopped: () => boolean,
): Promise<number> {
  const { kind, from, to, limit } = range;
  let after: ReminderPosition | null = null;
  let recorded = 0;
  for (;;) {
    const wanted = Math.min(REMINDER_BATCH, limit - recorded);
    const batch = await storage.transaction(async (tx) => {
      const { assignments: marked, next } = await tx.notifications.markReminders({
        kind,
        from,
        to,
        now: nowIso(clock),
        limit: wanted,
        after,
      });
      const users = new Map(
        (await tx.notifications.recipients([...new Set(marked.map((m) => m.user_public_id))])).map((u) => [u.public_id, u]),
      );
      await recorder.recordMany(
        tx,
        marked.map((assignment) => {
          const user = users.get(assignment.user_public_id)!;
          const payload: AssignmentPayload = {
            kind,
            user: { name: user.name, email: user.email },
            assignment: {
              public_id: assignment.assignment_public_id,
              content_name: assignment.content_name,
              due_date: assignment.due_date,
            },
          };
          return { user, payload };
        }),
      );
      return { count: marked.length, next };
    });
    // the next batch starts after this one's last row, so none is read twice in one run
    after = batch.next;
    recorded += batch.count;
    if (batch.count < wanted || recorded >= limit || stopped()) return recorded;
  }
}
