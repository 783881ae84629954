/** Public API of @lectern/core. */
export * from './lectern.ts';
export * from './config.ts';
export type { ServiceDeps } from './service-deps.ts';

export * from './shared/errors.ts';
export * from './shared/fold-case.ts';
export * from './shared/ids.ts';
export * from './shared/clock.ts';
export * from './shared/time.ts';
export * from './shared/etag.ts';
export * from './shared/list-query.ts';
export * from './shared/listed-fields.ts';
export * from './shared/schema.ts';
export * from './shared/validation.ts';
export * from './shared/sync-batch.ts';
export * from './shared/write-options.ts';

export * from './ports/storage.ts';
export * from './ports/user-store.ts';
export * from './ports/group-store.ts';
export * from './ports/token-store.ts';
export * from './ports/outbox-store.ts';
export * from './ports/content-store.ts';
export * from './ports/channel-store.ts';
export * from './ports/assignment-store.ts';
export * from './ports/job-store.ts';
export * from './ports/insight-store.ts';
export * from './ports/webhook-store.ts';
export * from './ports/event-store.ts';
export * from './ports/enrollment-store.ts';
export * from './ports/list-narrowing.ts';
export * from './ports/saved-report-store.ts';

export * from './auth/scopes.ts';
export * from './auth/actor.ts';
export * from './auth/api-token.ts';
export * from './auth/token-secret.ts';
export * from './auth/token-service.ts';
export * from './auth/me.ts';
export * from './auth/me-service.ts';

export * from './users/user.ts';
export * from './users/user-rules.ts';
export * from './users/user-service.ts';

export * from './groups/group.ts';
export * from './groups/membership-rules.ts';
export * from './groups/group-service.ts';

export * from './content/content-item.ts';
export * from './content/content-rules.ts';
export * from './content/content-service.ts';
export * from './content/channel.ts';
export * from './content/channel-service.ts';
export * from './content/media-processing.ts';
export * from './content/media-service.ts';

export * from './webhooks/webhook-event.ts';
export * from './webhooks/webhook-signature.ts';
export * from './webhooks/webhook-target.ts';
export * from './webhooks/retry-schedule.ts';
export * from './webhooks/event-catalog.ts';
export * from './content/content-types.ts';
export * from './webhooks/webhook-subscription.ts';
export * from './webhooks/webhook-delivery.ts';
export * from './webhooks/webhook-service.ts';
export * from './webhooks/delivery-outcome.ts';
export * from './webhooks/delivery-engine.ts';

export * from './assignments/assignment-machine.ts';
export * from './assignments/assignment.ts';
export * from './assignments/track-expansion.ts';
export * from './assignments/track-progress.ts';
export * from './assignments/assignment-service.ts';
export * from './jobs/job.ts';
export * from './jobs/job-engine.ts';
export * from './insights/insight-service.ts';
export * from './events/iso-duration.ts';
export * from './events/wall-clock.ts';
export * from './events/location.ts';
export * from './events/facilitators.ts';
export * from './events/timeslot.ts';
export * from './events/event.ts';
export * from './events/event-inheritance.ts';
export * from './events/event-items.ts';
export * from './events/event-like-service.ts';
export * from './events/event-service.ts';
export * from './events/series-service.ts';
export * from './events/location-service.ts';
export * from './enrollments/enrollment-rules.ts';
export * from './enrollments/enrollment.ts';
export * from './enrollments/owned-assignment.ts';
export * from './enrollments/waitlist.ts';
export * from './enrollments/enrollment-service.ts';
export * from './insights/insight-math.ts';
export * from './insights/assignment-counters.ts';

export * from './reports/rql/rql-error.ts';
export * from './reports/rql/rql-ast.ts';
export * from './reports/rql/rql-parser.ts';
export * from './reports/rql/rql-pattern.ts';
export * from './reports/rql/rql-fields.ts';
export * from './reports/rql/rql-evaluate.ts';
export * from './reports/saved-report.ts';
export * from './reports/report-catalogues.ts';
export * from './reports/saved-report-service.ts';
