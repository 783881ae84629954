/**
 * The embeddable Lectern: every domain service over a storage adapter, with no HTTP.
 *
 *   const lectern = createLectern({ storage: await openSqliteStorage({ file: 'app.db' }) });
 *   const user = await lectern.users.create(lectern.context(), { email, name });
 */
import { AuditRecorder } from './audit/audit-recorder.ts';
import { AuditService } from './audit/audit-service.ts';
import { systemActor, type Actor, type RequestContext } from './auth/actor.ts';
import type { IssuedApiToken } from './auth/api-token.ts';
import { MeService } from './auth/me-service.ts';
import { grantedScopes } from './auth/scopes.ts';
import { SignInLinkService } from './auth/sign-in-link-service.ts';
import { OidcSignInService } from './auth/oidc-sign-in-service.ts';
import { TokenService } from './auth/token-service.ts';
import { AssignmentService } from './assignments/assignment-service.ts';
import { AssignmentWrites } from './assignments/assignment-writes.ts';
import { ChannelService } from './content/channel-service.ts';
import { ContentService } from './content/content-service.ts';
import { ContentWrites } from './content/content-writes.ts';
import { MediaService } from './content/media-service.ts';
import { EnrollmentService } from './enrollments/enrollment-service.ts';
import { Waitlist } from './enrollments/waitlist.ts';
import { EventItems } from './events/event-items.ts';
import { CalendarService } from './calendars/calendar-service.ts';
import { MailWorker } from './notifications/mail-worker.ts';
import { NotificationRecorder } from './notifications/notification-recorder.ts';
import { NotificationService } from './notifications/notification-service.ts';
import { EventService } from './events/event-service.ts';
import { LocationService } from './events/location-service.ts';
import { AboutService } from './about/about-service.ts';
import { EventSeriesService } from './events/series-service.ts';
import { lecternConfigSchema, type LecternConfig, type LecternConfigInput } from './config.ts';
import { GroupService } from './groups/group-service.ts';
import { ImportService } from './imports/import-service.ts';
import { InsightService } from './insights/insight-service.ts';
import { BulkJobListService } from './jobs/bulk-job-list.ts';
import { JobEngine } from './jobs/job-engine.ts';
import type { Storage } from './ports/storage.ts';
import { SavedReportService } from './reports/saved-report-service.ts';
import { ScimGroups } from './scim/scim-groups.ts';
import { ScimUsers } from './scim/scim-users.ts';
import type { ServiceDeps } from './service-deps.ts';
import { nowIso, systemClock, type Clock } from './shared/clock.ts';
import { forbidden, LecternError, notFound } from './shared/errors.ts';
import { randomIds, type IdGenerator } from './shared/ids.ts';
import type { User } from './users/user.ts';
import { UserService } from './users/user-service.ts';
import { emptyOutcomeCounts, type DeliveryOutcomeCounts } from './webhooks/delivery-counts.ts';
import { DeliveryEngine, type EngineLogger } from './webhooks/delivery-engine.ts';
import { EventRecorder } from './webhooks/event-recorder.ts';
import { WebhookService } from './webhooks/webhook-service.ts';

export interface LecternOptions {
  storage: Storage;
  clock?: Clock;
  ids?: IdGenerator;
  config?: LecternConfigInput;
  /** where background work reports trouble it recovers from */
  logger?: EngineLogger;
  /**
   * The counts of webhook outcomes `webhookDeliveryOutcomes` reads and the delivery engine adds
   * to: by default this process's own; `sharedOutcomeCounts` lets a worker thread that delivers
   * for this process count where the metrics read.
   */
  deliveryOutcomes?: DeliveryOutcomeCounts;
}

/** What background work `start` runs in this process; everything by default. */
export interface StartOptions {
  /**
   * Where bulk jobs and imports run: here, or elsewhere over the same database (a worker thread),
   * which is told of each job stored here.
   */
  jobs?: 'here' | { elsewhere: (jobId: number) => void };
  /**
   * Whether this process delivers webhooks and, unless `mail` says otherwise, emails (when they are
   * enabled); or elsewhere over the same database (a worker thread), which is told whenever a
   * transaction here records webhook events.
   */
  deliveries?: boolean | { elsewhere: () => void };
  /** whether this process sends emails (when they are enabled); as `deliveries` when not given */
  mail?: boolean;
  /** whether this process moves new audit entries into the indexed log and prunes old ones */
  auditUpkeep?: boolean;
}

export interface BootstrapResult {
  user: User;
  token: IssuedApiToken;
}

const USAGE_FLUSH_MS = 5_000;
/** How often the maintenance pass also deletes audit entries past their retention. */
const AUDIT_PRUNE_EVERY_MS = 60 * 60 * 1000;

export class Lectern {
  readonly config: LecternConfig;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** records webhook events in the transaction of the change (the transactional outbox) */
  readonly outbox: EventRecorder;
  /** records the audit entry of each change in its transaction (`auditLog` reads them) */
  readonly audit: AuditRecorder;
  /** `/audit-log/`: who changed what */
  readonly auditLog: AuditService;
  readonly users: UserService;
  readonly groups: GroupService;
  readonly tokens: TokenService;
  /** one-time console sign-in links: minted by `lectern console-url`, exchanged for a token */
  readonly signInLinks: SignInLinkService;
  /** console single sign-on: pending requests and the sign-in of a verified email */
  readonly oidcSignIn: OidcSignInService;
  /** `/me/`: the caller and its token */
  readonly me: MeService;
  readonly content: ContentService;
  /** what the content area offers other areas inside their transactions (events, assignments) */
  readonly contentWrites: ContentWrites;
  readonly channels: ChannelService;
  /** the bulk-job engine; other areas register their job kinds on it */
  readonly jobs: JobEngine;
  /** `GET /bulk-jobs/`: the jobs of every bulk route in one list */
  readonly bulkJobs: BulkJobListService;
  readonly assignments: AssignmentService;
  /** what the assignments area offers other areas inside their transactions (enrollments) */
  readonly assignmentWrites: AssignmentWrites;
  readonly insights: InsightService;
  readonly media: MediaService;
  readonly webhooks: WebhookService;
  /** present when webhooks are enabled; runs from start() to close() */
  private readonly deliveryEngine: DeliveryEngine | undefined;
  /** the webhook attempts this process committed, by what became of the delivery (read by the metrics) */
  readonly webhookDeliveryOutcomes: Readonly<DeliveryOutcomeCounts>;
  readonly locations: LocationService;
  /** `GET /about/`: version and, for admins, which optional features are configured */
  readonly about: AboutService;
  readonly eventSeries: EventSeriesService;
  /** `/events/`: the scheduled events (as opposed to webhook events, recorded by `outbox`) */
  readonly scheduledEvents: EventService;
  readonly enrollments: EnrollmentService;
  /** `.ics` documents: an event's timeslots and each user's personal feed */
  readonly calendars: CalendarService;
  /** `/notifications/`, one-click unsubscribe and `PATCH /me/` */
  readonly notifications: NotificationService;
  /** present when an SMTP server is configured; runs from start() to close() */
  private readonly mailWorker: MailWorker | undefined;
  readonly savedReports: SavedReportService;
  /** server-side CSV imports, processed by the job engine with the bulk jobs' item writes */
  readonly imports: ImportService;
  /** SCIM 2.0 provisioning of users and groups by an identity provider (docs/identity.md) */
  readonly scim: { users: ScimUsers; groups: ScimGroups };
  private usageTimer: NodeJS.Timeout | undefined;
  private stopForwardingDeliveries: (() => void) | undefined;
  private lastAuditPrune = 0;
  private auditUpkeep = true;

  constructor(options: LecternOptions) {
    this.config = lecternConfigSchema.parse(options.config ?? {});
    const deliveryOutcomes = options.deliveryOutcomes ?? emptyOutcomeCounts();
    this.webhookDeliveryOutcomes = deliveryOutcomes;
    this.storage = options.storage;
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? randomIds;
    this.outbox = new EventRecorder(this.clock, this.ids);
    this.audit = new AuditRecorder(this.clock, this.ids, this.config.audit.enabled);
    const deps: ServiceDeps = {
      storage: this.storage,
      clock: this.clock,
      ids: this.ids,
      outbox: this.outbox,
      audit: this.audit,
      config: this.config,
    };
    this.jobs = new JobEngine(deps, { ...this.config.jobs, instanceId: this.config.instanceId });
    this.bulkJobs = new BulkJobListService(deps);
    this.auditLog = new AuditService(deps);
    this.users = new UserService(deps, this.jobs);
    this.groups = new GroupService(deps);
    this.scim = { users: new ScimUsers(deps, this.users), groups: new ScimGroups(deps, this.groups) };
    this.tokens = new TokenService(deps);
    this.signInLinks = new SignInLinkService(deps, this.tokens);
    this.oidcSignIn = new OidcSignInService(deps, this.users, this.signInLinks);
    this.me = new MeService(deps);
    this.contentWrites = new ContentWrites(deps);
    this.content = new ContentService(deps, this.contentWrites);
    this.channels = new ChannelService(deps);
    this.assignmentWrites = new AssignmentWrites(deps);
    this.assignments = new AssignmentService(deps, this.contentWrites, this.assignmentWrites, this.jobs);
    this.insights = new InsightService(deps);
    this.media = new MediaService(deps);
    this.webhooks = new WebhookService(deps);
    if (this.config.webhooks.enabled) {
      this.deliveryEngine = new DeliveryEngine({
        storage: this.storage,
        clock: this.clock,
        ids: this.ids,
        outbox: this.outbox,
        config: this.config.webhooks,
        instanceId: this.config.instanceId,
        outcomes: deliveryOutcomes,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    }
    const notificationRecorder = new NotificationRecorder(this.clock, this.config);
    // enrollment and assignment changes owe their messages in the transaction that records their events
    if (notificationRecorder.enabled) this.outbox.observe((tx, events) => notificationRecorder.recordFor(tx, events));
    this.notifications = new NotificationService(deps);
    if (notificationRecorder.enabled) {
      this.mailWorker = new MailWorker({
        storage: this.storage,
        clock: this.clock,
        config: this.config,
        instanceId: this.config.instanceId,
        recorder: notificationRecorder,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    }
    const eventItems = new EventItems(this.contentWrites, notificationRecorder);
    // events and series are content items whose typed webhook payload is the events area's shape
    this.contentWrites.registerTypedView('event', eventItems.typedView);
    this.contentWrites.registerTypedView('event_type', eventItems.typedView);
    const waitlist = new Waitlist(deps);
    this.locations = new LocationService(deps);
    this.about = new AboutService(deps);
    this.eventSeries = new EventSeriesService(deps, eventItems, this.jobs);
    this.scheduledEvents = new EventService(deps, eventItems, this.jobs, waitlist);
    this.calendars = new CalendarService(deps, eventItems);
    this.enrollments = new EnrollmentService(deps, this.assignmentWrites, waitlist, this.jobs);
    const notUpdating = () => Promise.reject(new Error('only a users import updates existing users'));
    this.imports = new ImportService(deps, this.jobs, {
      users: {
        item: this.jobs.itemHandler('users'),
        many: (tx, ctx, items) => this.users.insertManyInTx(tx, ctx, items),
        updateUser: (tx, ctx, publicId, changes) => this.users.updateInTx(tx, ctx, publicId, changes),
      },
      assignments: {
        item: this.jobs.itemHandler('assignments'),
        many: (tx, ctx, items, knownUsers) => this.assignments.createManyInTx(tx, ctx, items, knownUsers),
        updateUser: notUpdating,
      },
      enrollments: {
        item: this.jobs.itemHandler('enrollments'),
        many: (tx, ctx, items, knownUsers) => this.enrollments.enrollParsedManyInTx(tx, ctx, items, knownUsers),
        updateUser: notUpdating,
      },
    });
    // each resource a report runs over, through that resource's own list use case
    this.savedReports = new SavedReportService(deps, {
      users: (ctx, params, narrowing) => this.users.list(ctx, params, narrowing),
      groups: (ctx, params, narrowing) => this.groups.list(ctx, params, narrowing),
      content_items: (ctx, params, narrowing) => this.content.list(ctx, params, narrowing),
      assignments: (ctx, params, narrowing) => this.assignments.list(ctx, params, narrowing),
      enrollments: (ctx, params, narrowing) => this.enrollments.list(ctx, params, narrowing),
      events: (ctx, params, narrowing) => this.scheduledEvents.list(ctx, params, narrowing),
    });
  }

  /**
   * A request context; without an actor, the embedding application itself (every permission). An
   * adapter passes the `Actor` it authenticated; to act as a user, use `contextFor`.
   */
  context(actor: Actor = systemActor, requestId: string = this.ids.prefixed('req_')): RequestContext {
    return { actor, requestId };
  }

  /**
   * A request context acting as a user, named by public id or by the user as the services return
   * it: their current role and every scope it grants (a token of theirs with all scopes). Reads
   * the user, so a role changed since the record was read counts; `not_found` for an unknown user,
   * `forbidden` for a deactivated one, whose tokens stop working too.
   */
  async contextFor(user: string | Pick<User, 'public_id'>, requestId?: string): Promise<RequestContext> {
    const publicId = typeof user === 'string' ? user : user.public_id;
    const record = await this.storage.users.findByPublicId(publicId);
    if (!record) throw notFound('User');
    if (!record.view.is_active) throw forbidden(`The user ${record.view.public_id} is deactivated and cannot act.`);
    const { role } = record.view;
    const actor: Actor = { kind: 'user', userId: record.id, publicId: record.view.public_id, role, scopes: new Set(grantedScopes(role)) };
    return this.context(actor, requestId);
  }

  /**
   * Starts background work: token usage flushing, webhook delivery when enabled, and the bulk-job
   * worker, which resumes the jobs a previous process left unfinished. Resolves once those jobs
   * are scheduled.
   */
  async start(options: StartOptions = {}): Promise<void> {
    this.auditUpkeep = options.auditUpkeep ?? true;
    this.usageTimer ??= setInterval(() => void this.maintain().catch(() => {}), USAGE_FLUSH_MS).unref();
    const deliveries = options.deliveries ?? true;
    if (deliveries === true) this.deliveryEngine?.start();
    else if (deliveries && this.deliveryEngine) this.stopForwardingDeliveries ??= this.outbox.onRecorded(deliveries.elsewhere);
    if (options.mail ?? deliveries === true) await this.mailWorker?.start();
    const jobs = options.jobs ?? 'here';
    this.jobs.runElsewhere(jobs === 'here' ? undefined : jobs.elsewhere);
    if (jobs === 'here') await this.jobs.start();
  }

  /** Tells this process's delivery engine that another thread recorded webhook events. */
  wakeDeliveries(): void {
    this.deliveryEngine?.wake(true);
  }

  /**
   * The periodic pass: writes buffered token use, moves new audit entries into the indexed log, and
   * at most hourly deletes the audit entries past their retention (each process prunes; deleting
   * what another already deleted is harmless).
   */
  async maintain(): Promise<void> {
    await this.tokens.flushUsage();
    if (!this.auditUpkeep) return;
    await this.auditLog.settle();
    const now = this.clock.now().getTime();
    if (now - this.lastAuditPrune < AUDIT_PRUNE_EVERY_MS) return;
    this.lastAuditPrune = now;
    await this.auditLog.prune();
  }

  /** For readiness probes: `service_unavailable` while the storage cannot serve requests. */
  async assertReady(): Promise<void> {
    const reason = await this.storage.unavailableReason();
    if (reason !== null) throw new LecternError('service_unavailable', reason);
  }

  /**
   * On an empty database, creates an admin and a token for it, in one transaction so that two
   * processes starting together cannot both bootstrap. Returns null when users already exist.
   * That is asked first outside a transaction: a server restarted beside busy ones (several on
   * PostgreSQL) would otherwise wait for the write lock behind their job chunks, and one that
   * waited past the lock timeout failed to start.
   */
  async bootstrapAdmin(admin: { email: string; name: string }): Promise<BootstrapResult | null> {
    if ((await this.storage.users.count()) > 0) return null;
    return this.storage.transaction(async (tx) => {
      if ((await tx.users.count()) > 0) return null;
      const ctx = this.context();
      const record = await tx.users.insert({
        publicId: this.ids.uuid(),
        email: admin.email,
        name: admin.name,
        role: 'admin',
        employeeId: null,
        managerId: null,
        isActive: true,
        dateJoined: nowIso(this.clock),
      });
      await this.audit.record(tx, ctx, 'user.created', record.view.public_id);
      const token = await this.tokens.issue({ userId: record.id, role: 'admin', name: 'bootstrap' }, tx, ctx);
      return { user: record.view, token };
    });
  }

  /**
   * Stops background work, waits (bounded) for webhook attempts in flight, writes what is
   * buffered, and closes the storage.
   */
  async close(): Promise<void> {
    this.stopForwardingDeliveries?.();
    await this.deliveryEngine?.stop();
    await this.mailWorker?.stop();
    if (this.usageTimer) clearInterval(this.usageTimer);
    this.usageTimer = undefined;
    await this.jobs.stop();
    await this.tokens.flushUsage();
    await this.storage.close();
  }
}

export const createLectern = (options: LecternOptions): Lectern => new Lectern(options);
