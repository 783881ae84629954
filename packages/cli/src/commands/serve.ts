import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { deliveryOutcomes as deliveryOutcomeKinds, sharedOutcomeCounts } from '@lectern/core';
import { createApp, listen } from '@lectern/http';
import { describePostgresUrl, isPostgresUrl, WRITER_TURNS_SLOTS } from '@lectern/storage';
import type { Logger } from 'pino';
import { createLogger } from '../logger.ts';
import { consoleFiles as findConsoleFiles } from '../console-files.ts';
import { seaViewerFiles } from '../sea-assets.ts';
import { openLectern } from '../open-lectern.ts';
import { backgroundPoolSize, backgroundThreadStarts, startBackgroundThread } from '../background-thread.ts';
import { planSearchThreads } from '../search-threads.ts';
import { serveSettings } from '../serve-settings.ts';
import { addSettingOptions, resolveSettings, type Resolved } from '../settings.ts';
import { limitHeapGrowth } from '../heap-growth.ts';
import { UsageError } from '../usage-error.ts';

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
    `    or open ${url}/console/ in a browser and paste the token`,
    rule,
    '',
  ].join('\n');
}

/**
 * Private webhook targets let any admin token make the server send requests into the local network
 * (SSRF): fine on a laptop, dangerous in production, so it is said where an operator will see it.
 */
function warnPrivateWebhookTargets(logger: Logger): void {
  const message =
    'webhook targets may be private or loopback addresses and plain http (--allow-private-webhook-targets): for local development only';
  logger.warn({ allow_private_webhook_targets: true }, message);
  if (process.stderr.isTTY) process.stderr.write(`\n  WARNING: ${message}\n\n`);
}

type ServeSettings = Resolved<typeof serveSettings>;

/** Single sign-on is on when the issuer is set; then the client's id and secret must be too. */
function oidcConfig(settings: ServeSettings) {
  const { oidc_issuer: issuer, oidc_client_id: clientId, oidc_client_secret: clientSecret } = settings;
  if (issuer === undefined) {
    if (clientId !== undefined || clientSecret !== undefined)
      throw new UsageError('oidc_client_id and oidc_client_secret need oidc_issuer');
    return null;
  }
  if (clientId === undefined || clientSecret === undefined) throw new UsageError('oidc_issuer needs oidc_client_id and oidc_client_secret');
  return { issuer, clientId, clientSecret, name: settings.oidc_name, createUsers: settings.oidc_create_users };
}

/**
 * Host and port name a server across restarts, so one that starts again takes back at once what
 * it held (docs/scaling.md). A server on a port the system picks has no such name: its process does.
 */
const defaultInstanceId = (port: number) => (port === 0 ? `${hostname()}:pid-${process.pid}` : `${hostname()}:${port}`);

async function serve(settings: ServeSettings): Promise<void> {
  const logger = createLogger(settings.log_level);
  const config = {
    instanceId: settings.instance_id ?? defaultInstanceId(settings.port),
    ...(settings.public_url ? { publicUrl: settings.public_url } : {}),
    webhooks: {
      enabled: !settings.disable_webhooks,
      allowPrivateTargets: settings.allow_private_webhook_targets,
      retryScheduleSeconds: settings.webhook_retry_schedule,
      concurrencyPerEndpoint: settings.webhook_concurrency_per_endpoint,
    },
    jobs: { chunkSize: settings.job_chunk_size, pauseMs: settings.job_pause_ms },
    imports: { maxUploadMb: settings.max_import_mb },
    tokens: { maxLivePerUser: settings.max_tokens_per_user },
    audit: { retentionDays: settings.audit_retention_days },
    mail: {
      smtpUrl: settings.smtp_url ?? null,
      from: settings.mail_from,
      reminderDays: settings.reminder_days,
      retryScheduleSeconds: settings.mail_retry_schedule,
      reminderSweepSeconds: settings.reminder_sweep_seconds,
    },
    oidc: oidcConfig(settings),
  };
  // shared with the background thread, when there is one: this thread's writes go first (its
  // import batches give way to them), and on SQLite it takes the log's checkpoints
  const writerTurns = new Int32Array(new SharedArrayBuffer(4 * WRITER_TURNS_SLOTS));
  const threaded = backgroundThreadStarts();
  // both threads' transactions: /metrics here shows the longest, import chunks included
  const longestTransaction = new Int32Array(new SharedArrayBuffer(4));
  // the background thread delivers the webhooks; /metrics here reads what it counted
  const deliveryOutcomes = new SharedArrayBuffer(8 * deliveryOutcomeKinds.length);
  const searchThreads = planSearchThreads(settings.db, settings.search_concurrency, logger);
  const lectern = await openLectern(settings.db, {
    create: true,
    config,
    logger,
    poolSize: settings.db_pool_size,
    ...(threaded ? { writerTurns: { counter: writerTurns, role: 'first' as const } } : {}),
    longestTransaction,
    deliveryOutcomes: sharedOutcomeCounts(deliveryOutcomes),
    ...(searchThreads.offloadRead ? { offloadRead: searchThreads.offloadRead } : {}),
  });
  // Not before the first await: packages/cli/bin/lectern.cjs writes the main thread's code cache
  // when the bundle's top level returns, and V8 rejects a cache made under other flags, so one
  // made after this flag changed would be rejected and rewritten by the next command.
  limitHeapGrowth();
  const viewerFiles = await seaViewerFiles();
  const consoleFiles = await findConsoleFiles();
  const app = createApp(lectern, {
    rateLimit: {
      limit: settings.rate_limit,
      windowSeconds: settings.rate_limit_window,
      ...(settings.rate_limit_per_user ? { perUser: settings.rate_limit_per_user } : {}),
    },
    searchAdmission: { concurrent: settings.search_concurrency, queued: settings.search_concurrency * 8 },
    logger,
    corsOrigins: settings.cors_origins ?? [],
    ...(viewerFiles ? { viewerFiles } : {}),
    ...(consoleFiles ? { consoleFiles } : {}),
  });
  const listening = await listen(app, {
    port: settings.port,
    host: settings.host,
    headersTimeoutMs: settings.headers_timeout_ms,
    requestTimeoutMs: settings.request_timeout_ms,
    uploadTimeoutMs: settings.upload_timeout_ms,
    maxConnections: settings.max_connections,
    maxConnectionsPerAddress: settings.max_connections_per_address,
    logger,
  });
  const background = startBackgroundThread(
    {
      db: settings.db,
      config,
      logLevel: settings.log_level,
      writerTurns,
      longestTransaction,
      poolSize: backgroundPoolSize(settings.db_pool_size),
      deliveryOutcomes,
    },
    logger,
    (error) => {
      // a bug or a lack of memory: the jobs resume where they stopped once the server is restarted
      logger.fatal({ err: error }, 'the background thread died: stopping so that the service manager starts the server again');
      logger.flushNow();
      process.exit(1);
    },
  );
  await lectern.start(
    background
      ? { jobs: { elsewhere: background.wake }, deliveries: { elsewhere: background.deliver }, auditUpkeep: false, mail: false }
      : {},
  );

  const bootstrap = await lectern.bootstrapAdmin({ email: settings.admin_email, name: 'Admin' });
  // stderr: stdout carries only the log's JSON lines, which a collector parses line by line
  if (bootstrap) process.stderr.write(bootstrapBanner(bootstrap.user.email, bootstrap.token.token, listening.url));
  // the address is printed even when the level hides info lines: scripts and people wait for it
  const announce = settings.log_level === 'silent' ? logger : logger.child({}, { level: 'info' });
  announce.info(
    {
      url: listening.url,
      db: isPostgresUrl(settings.db) ? describePostgresUrl(settings.db) : settings.db,
      webhooks: !settings.disable_webhooks,
    },
    `Lectern listening on ${listening.url}`,
  );
  if (settings.allow_private_webhook_targets) warnPrivateWebhookTargets(announce);
  // scripts and people wait for the address: it is not left in the log buffer
  logger.flushNow();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests and webhook attempts');
    await listening.close();
    await background?.stop();
    await searchThreads.stop();
    await lectern.close();
    logger.info('stopped');
    logger.flushNow();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

export function serveCommand(): Command {
  const command = new Command('serve')
    .description(
      'Run the API server on a SQLite database file or PostgreSQL; every setting also comes from LECTERN_* variables or a config file',
    )
    .addOption(new Option('--config <file>', 'TOML file of settings; flags and environment variables override it').env('LECTERN_CONFIG'));
  return addSettingOptions(command, serveSettings).action(async (flags: Record<string, unknown> & { config?: string }) =>
    serve(resolveSettings(serveSettings, { flags, env: process.env, configFile: flags.config })),
  );
}
