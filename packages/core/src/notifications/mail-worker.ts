/**
 * The mail worker (docs/notifications.md), on every process: claims due notifications (a lease, as
 * webhook deliveries have), sends them, and records what became of each; and a reminder sweep that
 * marks assignments owed a "due soon" or "overdue" message once, in the transaction that queues it.
 */
import type { LecternConfig } from '../config.ts';
import type { Storage } from '../ports/storage.ts';
import type { NotificationOutcome } from '../ports/notification-store.ts';
import { nowIso, type Clock } from '../shared/clock.ts';
import { mailMessage, sharedInvitations } from './mail-message.ts';
import { MailSender, type SendResult } from './mail-sender.ts';
import type { NotificationRecorder } from './notification-recorder.ts';
import type { NotificationPayload } from './notification.ts';
import { sweepReminders } from './reminder-sweep.ts';

/** How soon a sweep that spent its budget (config `mail.remindersPerSweep`) is followed by the next. */
const CATCH_UP_MS = 1000;

export interface MailWorkerDeps {
  storage: Storage;
  clock: Clock;
  config: Pick<LecternConfig, 'mail' | 'publicUrl'>;
  instanceId: string;
  recorder: NotificationRecorder;
  logger?: { warn(details: object, message?: string): void };
}

/** What an attempt's result makes of the notification: the retry schedule's `attempts`-th wait, or the end. */
export function outcomeOf(result: SendResult, attempts: number, schedule: readonly number[], now: Date): NotificationOutcome {
  if (result.ok) return { status: 'sent', attempts, lastError: null, sentAt: now.toISOString(), nextAttemptAt: null };
  const wait = schedule[attempts - 1];
  if (result.permanent || wait === undefined)
    return { status: 'failed', attempts, lastError: result.error, sentAt: null, nextAttemptAt: null };
  return {
    status: 'pending',
    attempts,
    lastError: result.error,
    sentAt: null,
    nextAttemptAt: new Date(now.getTime() + wait * 1000).toISOString(),
  };
}

export class MailWorker {
  private readonly sender: MailSender;
  private readonly invitations = sharedInvitations();
  private poll: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private catchUp: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | null = null;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: MailWorkerDeps) {
    this.sender = new MailSender(deps.config.mail.smtpUrl!, Math.min(deps.config.mail.concurrency, 8));
  }

  async start(): Promise<void> {
    // what this process held when it stopped is due again at once
    await this.deps.storage.notifications.releaseLeases(this.deps.instanceId, nowIso(this.deps.clock));
    this.poll = setInterval(() => this.wake(), this.deps.config.mail.pollIntervalMs).unref();
    this.sweepTimer = setInterval(() => void this.sweep(), this.deps.config.mail.reminderSweepSeconds * 1000).unref();
    void this.sweep();
    this.wake();
  }

  /** Sends until nothing is due; a wake-up while a pass runs is covered by the next poll. */
  wake(): void {
    if (this.stopped || this.pumping) return;
    this.pumping = this.pump()
      .catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'mail worker pass failed'))
      .finally(() => (this.pumping = null));
  }

  private async pump(): Promise<void> {
    const { mail, publicUrl } = this.deps.config;
    for (;;) {
      if (this.stopped) return;
      const now = this.deps.clock.now();
      const until = new Date(now.getTime() + mail.leaseSeconds * 1000).toISOString();
      const claimed = await this.deps.storage.notifications.claim(this.deps.instanceId, until, now.toISOString(), mail.concurrency * 4);
      if (claimed.length === 0) return;
      let next = 0;
      const results: Array<[notification: (typeof claimed)[number], result: SendResult]> = [];
      const lane = async () => {
        while (next < claimed.length) {
          const notification = claimed[next++]!;
          const payload = JSON.parse(notification.payload) as NotificationPayload;
          const message = mailMessage(
            { publicUrl, from: mail.from },
            notification.id,
            payload,
            notification.unsubscribeKey,
            this.invitations,
          );
          results.push([notification, await this.sender.send(message)]);
        }
      };
      await Promise.all(Array.from({ length: Math.min(mail.concurrency, claimed.length) }, lane));
      // One commit for the claimed batch rather than one per message, and one time for the batch,
      // so that its successes are one statement: a crash before it sends the batch again under the
      // same Message-IDs, which at-least-once delivery allows. Each UPDATE names this process as
      // the lease owner and nothing else writes a leased row, so the batch needs no turn among the
      // writers.
      const finished = this.deps.clock.now();
      const outcomes = results.map(([notification, result]) => ({
        id: notification.id,
        outcome: outcomeOf(result, notification.attempts + 1, mail.retryScheduleSeconds, finished),
      }));
      await this.deps.storage.transaction((tx) => tx.notifications.finish(this.deps.instanceId, outcomes), { withoutWriteLock: true });
    }
  }

  /**
   * One run of the reminder sweep: "due soon" for due dates from today to reminder_days ahead,
   * "overdue" before today; at most `mail.remindersPerSweep` of them, the rest in the next run.
   */
  sweep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.sweeping ??= this.sweepOnce()
      .then((spent) => {
        // a backlog goes out over several short runs, the writer free between them
        if (spent && !this.stopped) this.catchUp = setTimeout(() => void this.sweep(), CATCH_UP_MS).unref();
      })
      .catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'reminder sweep failed'))
      .finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<boolean> {
    const { spent } = await sweepReminders(this.deps, () => this.stopped);
    this.wake();
    return spent;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    clearInterval(this.sweepTimer);
    clearTimeout(this.catchUp);
    await this.pumping;
    await this.sweeping;
    this.sender.close();
  }
}
