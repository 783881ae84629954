import { z } from 'zod';

/** Default retry delays (seconds) after a failed webhook attempt (docs/webhooks.md). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** Waits (seconds) before each retry of an email after a temporary SMTP failure: 1 min, 5 min, 30 min, 2 h, 6 h. */
export const DEFAULT_MAIL_RETRY_SCHEDULE = [60, 300, 1800, 7200, 21600];
/**
 * Reminders one sweep records at most: about 0.4 s of work on the benchmark machine (marking,
 * the recipients, the messages' rows), well inside a second.
 */
export const DEFAULT_REMINDERS_PER_SWEEP = 5_000;

export const lecternConfigSchema = z.object({
  /**
   * This process among those sharing the database: the holder named on the bulk jobs and webhook
   * deliveries it is working on. Each live process needs its own; a process started again under
   * the same id takes back at once what it held when it stopped (docs/scaling.md).
   */
  instanceId: z.string().min(1).max(200).default('lectern'),
  /** Base URL people use to reach this platform; media-processing events link into it. */
  publicUrl: z.string().default('http://127.0.0.1:8080'),
  /**
   * Console single sign-on through an OpenID provider (docs/identity.md); null when not set up.
   * The issuer's own checks (https, loopback) are the command line's: an embedder passes a URL it trusts.
   */
  oidc: z
    .object({
      issuer: z.string().min(1),
      clientId: z.string().min(1),
      clientSecret: z.string().min(1),
      /** the sign-in button's label: "Sign in with <name>" */
      name: z.string().min(1).default('single sign-on'),
      /** an unknown but verified email becomes a new active `user` instead of being refused */
      createUsers: z.boolean().default(false),
    })
    .nullable()
    .default(null),
  webhooks: z
    .object({
      enabled: z.boolean().default(true),
      /** Lifts the https-only and public-address rules for local development and tests. */
      allowPrivateTargets: z.boolean().default(false),
      retryScheduleSeconds: z.array(z.number().nonnegative()).min(1).default(DEFAULT_WEBHOOK_RETRY_SCHEDULE),
      /** An attempt that has not answered within this long is a failure. */
      timeoutSeconds: z.number().positive().default(15),
      /** An endpoint failing without a single success for this long is disabled (5 days). */
      disableAfterSeconds: z
        .number()
        .nonnegative()
        .default(5 * 24 * 60 * 60),
      /** Attempts in flight at once, over all endpoints. */
      concurrency: z.number().int().positive().default(64),
      /** Attempts in flight at once to one endpoint, so one slow receiver cannot take every slot. */
      concurrencyPerEndpoint: z.number().int().positive().default(16),
      /** How often the engine looks for work it was not told about (events from other processes, due retries). */
      pollIntervalMs: z.number().int().positive().default(25),
      /** How long shutdown waits for attempts in flight before abandoning them to the next start. */
      shutdownGraceSeconds: z.number().nonnegative().default(10),
    })
    .prefault({}),
  tokens: z
    .object({
      /** Live (unrevoked, unexpired) tokens one user may hold; each has its own rate-limit window. */
      maxLivePerUser: z.number().int().min(1).default(50),
    })
    .prefault({}),
  audit: z
    .object({
      /** Entries older than this many days are deleted by the periodic maintenance pass. */
      retentionDays: z.number().int().min(1).default(365),
      /**
       * Only for measuring what the audit log costs a write (scripts/bench): a server that records
       * no entries breaks the accountability the log exists for, so no serve setting offers it.
       */
      enabled: z.boolean().default(true),
    })
    .prefault({}),
  imports: z
    .object({
      /** The largest CSV file `POST /imports/` takes, in MiB; it is streamed, never held whole. */
      maxUploadMb: z
        .number()
        .int()
        .min(1)
        .max(1024 * 1024)
        .default(256),
    })
    .prefault({}),
  /** Bulk jobs: items per transaction, and a pause between chunks to leave room for requests. */
  jobs: z
    .object({
      chunkSize: z.number().int().min(1).max(500).default(25),
      pauseMs: z.number().int().min(0).max(60_000).default(0),
      /**
       * How long a process holds a job between chunks; a process that dies leaves its jobs to the
       * others after this long. Renewed with every chunk, so it only has to outlast one chunk.
       */
      leaseSeconds: z.number().int().min(1).max(3600).default(30),
      /** How often a process looks for jobs it may take: submitted elsewhere, or left by a process that died. */
      pollIntervalMs: z.number().int().min(10).max(60_000).default(1000),
      /**
       * Waits before retrying a chunk that hit an unexpected error (a database busy with another
       * process, most likely); the job fails when they are used up.
       */
      retryDelaysMs: z.array(z.number().int().min(0).max(60_000)).max(10).default([100, 500, 2000]),
    })
    .prefault({}),
  /** Email notifications (docs/notifications.md); without `smtpUrl` nothing is queued or sent. */
  mail: z
    .object({
      /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` */
      smtpUrl: z
        .string()
        .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL')
        .nullable()
        .default(null),
      from: z.string().default('Lectern <lectern@localhost>'),
      /** the "due soon" reminder goes out this many days before an assignment's due date */
      reminderDays: z.number().int().min(0).max(365).default(3),
      /** waits (seconds) after each temporary failure; the attempt after the last one fails for good */
      retryScheduleSeconds: z.array(z.number().nonnegative()).min(1).default(DEFAULT_MAIL_RETRY_SCHEDULE),
      /** how often a process looks for assignments owed a reminder */
      reminderSweepSeconds: z.number().positive().default(60),
      /**
       * reminders one sweep records at most; with more owed (reminders turned on over many
       * assignments at once) the next sweep follows a second later, until none are left
       */
      remindersPerSweep: z.number().int().min(1).default(DEFAULT_REMINDERS_PER_SWEEP),
      /** how often a process looks for messages to send that it was not told about */
      pollIntervalMs: z.number().int().positive().default(250),
      /** messages in flight at once from one process */
      concurrency: z.number().int().min(1).max(100).default(8),
      /** how long a claimed message is held before another process may take it */
      leaseSeconds: z.number().int().min(5).default(120),
    })
    .prefault({}),
});
export type LecternConfig = z.infer<typeof lecternConfigSchema>;
export type LecternConfigInput = z.input<typeof lecternConfigSchema>;
