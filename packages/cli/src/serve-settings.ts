/**
 * Every setting of `lectern serve`, declared once: its flag, environment variable, config-file
 * key, parser, default and documentation all derive from here (see settings.ts). To add one,
 * add an entry and regenerate docs/configuration.md (scripts/docs-configuration.ts).
 */
import { DEFAULT_MAIL_RETRY_SCHEDULE, DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '@lectern/core';
import { DEFAULT_SERVER_LIMITS } from '@lectern/http';
import { logLevels } from './logger.ts';
import { setting } from './settings.ts';
import { kinds } from './value-kinds.ts';

export const serveSettings = {
  db: setting({
    kind: kinds.text,
    argument: '<file|url>',
    default: './lectern.db',
    description: 'SQLite database file (created, with its schema, if missing) or a postgres:// URL (docs/scaling.md)',
  }),
  db_pool_size: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: 10,
    description: 'PostgreSQL: connections the request thread keeps at most (the background thread keeps a third as many, at least 2)',
  }),
  host: setting({ kind: kinds.text, argument: '<host>', default: '127.0.0.1', description: 'interface to listen on (0.0.0.0 for all)' }),
  port: setting({ kind: kinds.port, argument: '<n>', default: 8080, description: 'TCP port; 0 picks a free one' }),
  instance_id: setting({
    kind: kinds.text,
    argument: '<id>',
    defaultText: '<hostname>:<port>',
    description:
      'names this process among those sharing a database, on the bulk jobs and webhook deliveries it works on; each needs its own, and a restart under the same id takes back at once what the process held (with --port 0 the default is <hostname>:pid-<pid>)',
  }),
  public_url: setting({
    kind: kinds.url,
    argument: '<url>',
    defaultText: 'http://127.0.0.1:8080',
    description: 'base URL people use to reach this server (webhook payloads link into it)',
  }),
  rate_limit: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: 600,
    description: 'requests per window per token (per client address without a valid token)',
  }),
  rate_limit_per_user: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    defaultText: 'ten times --rate-limit',
    description: "requests per window over all of one user's tokens together, so new tokens do not multiply the limit",
  }),
  max_tokens_per_user: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: 50,
    description: 'live (unrevoked, unexpired) API tokens one user may hold; creating one more is refused',
  }),
  search_concurrency: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: 1,
    description:
      'list requests with a search run at most this many at once (on SQLite each on a thread of its own), with eight times as many waiting; more are refused with 503 and Retry-After, so searches cannot stall other requests',
  }),
  rate_limit_window: setting({
    kind: kinds.positiveInteger,
    argument: '<seconds>',
    default: 60,
    description: 'length of the rate-limit window, in seconds',
  }),
  headers_timeout_ms: setting({
    kind: kinds.positiveInteger,
    argument: '<ms>',
    default: DEFAULT_SERVER_LIMITS.headersTimeoutMs,
    description: "time a client has to send a request's headers before the connection is closed (408)",
  }),
  request_timeout_ms: setting({
    kind: kinds.positiveInteger,
    argument: '<ms>',
    default: DEFAULT_SERVER_LIMITS.requestTimeoutMs,
    description: "time a client has to send a request's body once its headers are in (408); at least the headers timeout",
  }),
  upload_timeout_ms: setting({
    kind: kinds.positiveInteger,
    argument: '<ms>',
    default: DEFAULT_SERVER_LIMITS.uploadTimeoutMs,
    description: "the same for an import's file (POST /imports/), which may take minutes to send (408)",
  }),
  max_connections: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: DEFAULT_SERVER_LIMITS.maxConnections,
    description:
      'open connections at most; when full, an idle or slow-header connection of the address holding the most is closed to make room, and a new one is refused only when every connection is answering a request',
  }),
  max_connections_per_address: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: DEFAULT_SERVER_LIMITS.maxConnectionsPerAddress,
    description:
      'open connections from one client address at most, so one client cannot take every slot; behind a reverse proxy, set it to --max-connections',
  }),
  cors_origins: setting({
    kind: kinds.origins,
    argument: '<origin,...>',
    defaultText: 'none',
    description: 'origins whose web pages may call the API (e.g. https://app.example.com; * for any)',
  }),
  disable_webhooks: setting({
    kind: kinds.switch,
    default: false,
    description: 'turn webhooks off: no deliveries, and their routes answer 503',
  }),
  allow_private_webhook_targets: setting({
    kind: kinds.switch,
    default: false,
    description: 'allow http:// and private or loopback webhook URLs; for local development and tests only (logged as a warning)',
  }),
  webhook_retry_schedule: setting({
    kind: kinds.seconds,
    argument: '<s1,s2,...>',
    default: DEFAULT_WEBHOOK_RETRY_SCHEDULE,
    description: 'seconds to wait before each retry of a failed webhook delivery',
  }),
  webhook_concurrency_per_endpoint: setting({
    kind: kinds.positiveInteger,
    argument: '<n>',
    default: 16,
    description:
      'webhook requests this process has in flight at once to one subscription; 1, on a single server, makes a receiver get events one at a time, in the order they happened',
  }),
  // email notifications (docs/notifications.md)
  smtp_url: setting({
    kind: kinds.text,
    argument: '<url>',
    defaultText: 'none: no email is queued or sent',
    description: 'SMTP server for email notifications: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465',
  }),
  mail_from: setting({
    kind: kinds.text,
    argument: '<address>',
    default: 'Lectern <lectern@localhost>',
    description: 'the From of every email, e.g. "Learning <learning@example.com>"',
  }),
  reminder_days: setting({
    kind: kinds.integerBetween(0, 365),
    argument: '<days>',
    default: 3,
    description: 'days before an assignment\'s due date its "due soon" email goes out (once)',
  }),
  mail_retry_schedule: setting({
    kind: kinds.seconds,
    argument: '<s1,s2,...>',
    default: DEFAULT_MAIL_RETRY_SCHEDULE,
    description: 'seconds to wait before each retry of an email after a temporary SMTP failure; a 5xx reply fails it at once',
  }),
  reminder_sweep_seconds: setting({
    kind: kinds.positiveInteger,
    argument: '<s>',
    default: 60,
    description: 'how often each server looks for assignments owed a reminder',
  }),
  max_import_mb: setting({
    kind: kinds.positiveInteger,
    argument: '<mib>',
    default: 256,
    description:
      'largest CSV file POST /api/v2/imports/ accepts, in MiB (streamed into the database, never held in memory); larger is refused with 413',
  }),
  job_chunk_size: setting({
    kind: kinds.integerBetween(1, 500),
    argument: '<n>',
    default: 25,
    description: 'bulk-job items processed per transaction (eight times as many for kinds with a batch write)',
  }),
  job_pause_ms: setting({
    kind: kinds.integerBetween(0, 60_000),
    argument: '<ms>',
    default: 0,
    description: 'pause between bulk-job chunks, in milliseconds, to leave room for requests',
  }),
  audit_retention_days: setting({
    kind: kinds.positiveInteger,
    argument: '<days>',
    default: 365,
    description: 'audit log entries older than this many days are deleted (checked hourly)',
  }),
  oidc_issuer: setting({
    kind: kinds.issuer,
    argument: '<url>',
    defaultText: 'none (single sign-on off)',
    description:
      'OpenID Connect issuer for console single sign-on (its /.well-known/openid-configuration is read); needs oidc_client_id and oidc_client_secret (docs/identity.md)',
  }),
  oidc_client_id: setting({ kind: kinds.text, argument: '<id>', description: "this server's client id at the identity provider" }),
  oidc_client_secret: setting({
    kind: kinds.text,
    argument: '<secret>',
    description: "this server's client secret at the identity provider (prefer the variable or the config file to a flag)",
  }),
  oidc_name: setting({
    kind: kinds.text,
    argument: '<name>',
    default: 'single sign-on',
    description: 'the identity provider\'s name on the console\'s button: "Sign in with <name>"',
  }),
  oidc_create_users: setting({
    kind: kinds.switch,
    default: false,
    description: 'a verified email no user has yet signs in as a new active user (role user) instead of being refused',
  }),
  admin_email: setting({
    kind: kinds.email,
    argument: '<email>',
    default: 'admin@example.com',
    description: 'email of the admin created on the first start',
  }),
  log_level: setting({
    kind: kinds.choice(logLevels),
    argument: '<level>',
    default: 'info',
    description: 'least severe log level written',
  }),
};
