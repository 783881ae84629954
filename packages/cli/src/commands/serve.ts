import { Command, Option } from 'commander';
import { createApp, listen } from '@lectern/http';
import type { Logger } from 'pino';
import { createLogger, logLevels, type LogLevel } from '../logger.ts';
import { openLectern } from '../open-lectern.ts';
import { envFlag, portNumber, positiveInteger, secondsList, wholeNumber } from '../options.ts';

interface ServeFlags {
  db: string;
  port: number;
  host: string;
  rateLimit: number;
  rateLimitWindow: number;
  allowPrivateWebhookTargets?: boolean;
  webhookRetrySchedule?: number[];
  disableWebhooks?: boolean;
  publicUrl?: string;
  jobChunkSize?: number;
  jobPauseMs?: number;
  adminEmail: string;
  logLevel: LogLevel;
}

function bootstrapBanner(email: string, token: string, url: string): string {
  const rule = '='.repeat(72);
  return [
    rule,
    `Lectern created the first admin user (${email}).`,
    'Bootstrap admin API token (shown only this once; store it somewhere safe):',
    '',
    `    ${token}`,
    '',
    'Try it:',
    `    curl -H "Authorization: Bearer ${token}" ${url}/api/v2/users/`,
    rule,
    '',
  ].join('\n');
}

/**
 * Private webhook targets let any admin token make the server send requests into the local network
 * (SSRF): fine on a laptop, dangerous in production, so it is said where an operator will see it.
 */
function warnPrivateWebhookTargets(logger: Logger): void {
  const message = 'webhook targets may be private or loopback addresses and plain http (--allow-private-webhook-targets): for local development only';
  logger.warn({ allow_private_webhook_targets: true }, message);
  if (process.stderr.isTTY) process.stderr.write(`\n  WARNING: ${message}\n\n`);
}

async function serve(flags: ServeFlags): Promise<void> {
  const logger = createLogger(flags.logLevel);
  const allowPrivate = flags.allowPrivateWebhookTargets ?? envFlag('LECTERN_ALLOW_PRIVATE_WEBHOOK_TARGETS') ?? false;
  const disableWebhooks = flags.disableWebhooks ?? envFlag('LECTERN_DISABLE_WEBHOOKS') ?? false;
  const config = {
    ...(flags.publicUrl ? { publicUrl: flags.publicUrl } : {}),
    webhooks: {
      enabled: !disableWebhooks,
      allowPrivateTargets: allowPrivate,
      ...(flags.webhookRetrySchedule ? { retryScheduleSeconds: flags.webhookRetrySchedule } : {}),
    },
    jobs: {
      ...(flags.jobChunkSize !== undefined ? { chunkSize: flags.jobChunkSize } : {}),
      ...(flags.jobPauseMs !== undefined ? { pauseMs: flags.jobPauseMs } : {}),
    },
  };
  const lectern = await openLectern(flags.db, { create: true, config, logger });
  const app = createApp(lectern, { rateLimit: { limit: flags.rateLimit, windowSeconds: flags.rateLimitWindow }, logger });
  const listening = await listen(app, { port: flags.port, host: flags.host });
  await lectern.start();

  const bootstrap = await lectern.bootstrapAdmin({ email: flags.adminEmail, name: 'Admin' });
  if (bootstrap) process.stdout.write(bootstrapBanner(bootstrap.user.email, bootstrap.token.token, listening.url));
  // the address is printed even when the level hides info lines: scripts and people wait for it
  const announce = flags.logLevel === 'silent' ? logger : logger.child({}, { level: 'info' });
  announce.info({ url: listening.url, db: flags.db, webhooks: !disableWebhooks }, `Lectern listening on ${listening.url}`);
  if (allowPrivate) warnPrivateWebhookTargets(announce);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests and webhook attempts');
    await listening.close();
    await lectern.close();
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('Run the API server on a SQLite database file')
    .addOption(new Option('--db <file>', 'SQLite database file (created if missing)').env('LECTERN_DB').default('./lectern.db'))
    .addOption(new Option('--port <n>', 'TCP port; 0 picks a free one').env('LECTERN_PORT').argParser(portNumber).default(8080))
    .addOption(new Option('--host <host>', 'interface to listen on').env('LECTERN_HOST').default('127.0.0.1'))
    .addOption(
      new Option('--rate-limit <n>', 'requests per window per token (per IP when unauthenticated)')
        .env('LECTERN_RATE_LIMIT')
        .argParser(positiveInteger)
        .default(600),
    )
    .addOption(
      new Option('--rate-limit-window <seconds>', 'length of the rate-limit window')
        .env('LECTERN_RATE_LIMIT_WINDOW')
        .argParser(positiveInteger)
        .default(60),
    )
    .addOption(
      new Option('--allow-private-webhook-targets', 'allow http:// and private/loopback webhook URLs (local development, tests); env LECTERN_ALLOW_PRIVATE_WEBHOOK_TARGETS'),
    )
    .addOption(
      new Option('--webhook-retry-schedule <s1,s2,...>', 'seconds between webhook delivery attempts')
        .env('LECTERN_WEBHOOK_RETRY_SCHEDULE')
        .argParser(secondsList),
    )
    .addOption(new Option('--disable-webhooks', 'turn webhooks off (their routes answer 503); env LECTERN_DISABLE_WEBHOOKS'))
    .addOption(new Option('--public-url <url>', 'base URL people use to reach this server').env('LECTERN_PUBLIC_URL'))
    .addOption(
      new Option('--job-chunk-size <n>', 'bulk-job items processed per transaction (default 25)')
        .env('LECTERN_JOB_CHUNK_SIZE')
        .argParser(positiveInteger),
    )
    .addOption(
      new Option('--job-pause-ms <ms>', 'pause between bulk-job chunks, to throttle background work (default 0)')
        .env('LECTERN_JOB_PAUSE_MS')
        .argParser(wholeNumber),
    )
    .addOption(
      new Option('--admin-email <email>', 'email of the admin created on first start').env('LECTERN_ADMIN_EMAIL').default('admin@example.com'),
    )
    .addOption(new Option('--log-level <level>', 'log level').env('LECTERN_LOG_LEVEL').choices(logLevels).default('info'))
    .action((flags: ServeFlags) => serve(flags));
}
