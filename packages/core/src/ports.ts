/**
 * `@lectern/core/ports`: what a storage adapter implements and needs (README.md, "Embedding the core"): the
 * store interfaces and their rows, the records and resource declarations it maps, and the domain
 * functions its SQL must agree with (case folding, the overdue rule, the counter rules, RQL's AST).
 */
export { type AssignmentState, assignmentStates, isOutstanding, isOverdue, outstandingStates } from './assignments/assignment-machine.ts';
export { type TrackGraph, type TrackNode } from './assignments/track-expansion.ts';
export { type TrackItemStatus } from './assignments/track-progress.ts';
export { type AttendanceMethod, type EnrollmentStatus } from './enrollments/enrollment-rules.ts';
export { type FacilitatorEntry, type FacilitatorRole } from './events/facilitators.ts';
export { type StoredTimeslot } from './events/timeslot.ts';
export {
  countedFacts,
  type CountedFacts,
  counterDeltas,
  createdDayOf,
  mergeCounterDeltas,
  type CounterDeltas,
} from './insights/assignment-counters.ts';
export { dayEnd, dayStart } from './shared/time.ts';
export {
  type AssignmentChanges,
  type AssignmentListOptions,
  type AssignmentStore,
  type NewAssignmentRow,
} from './ports/assignment-store.ts';
export { type AuditStore, type NewAuditRow } from './ports/audit-store.ts';
export { type ChannelStore } from './ports/channel-store.ts';
export {
  type ContainmentEdge,
  type ContentChanges,
  type ContentListOptions,
  type ContentStore,
  type ContentViewer,
  everyItem,
  type NewContentRow,
  type AssignTarget,
} from './ports/content-store.ts';
export {
  type EnrollmentChanges,
  type EnrollmentListOptions,
  type EnrollmentStore,
  type NewEnrollmentRow,
} from './ports/enrollment-store.ts';
export { type EventDetailsRow, type EventSeats, type EventStore, type LocationStore, type TimeslotRow } from './ports/event-store.ts';
export { type GroupStore, type NewGroupRow } from './ports/group-store.ts';
export { type InsightFilter, type InsightStore } from './ports/insight-store.ts';
export { type ImportStore, type NewImportRow, type RowOutcome as ImportRowOutcome, type StagedRow } from './ports/import-store.ts';
export { type JobItemOutcome, type JobStore, type JobSummaryRow, type NewJobRow, type PendingJobItem } from './ports/job-store.ts';
export { type ListNarrowing } from './ports/list-narrowing.ts';
export { type OutboxEntry, type OutboxStore } from './ports/outbox-store.ts';
export { type CountedCredentials, type RateCounterStore, type TokenWindows } from './ports/rate-counter-store.ts';
export { type NewSavedReportRow, type SavedReportChanges, type SavedReportStore } from './ports/saved-report-store.ts';
export {
  type ClaimedNotification,
  type NewNotificationRow,
  type NotificationOutcome,
  type NotificationStore,
  type MarkedReminders,
  type ReminderAssignment,
  type ReminderBatch,
  type ReminderPosition,
} from './ports/notification-store.ts';
export { type CalendarSlotSource, type CalendarStore, type FeedDue, type FeedSlot } from './ports/calendar-store.ts';
export { type NewOidcRequestRow, type NewSignInLinkRow, type OidcRequestStore, type SignInLinkStore } from './ports/sign-in-link-store.ts';
export { type ScimStore, type ScimUserState } from './ports/scim-store.ts';
export { type DatabaseStats, type Storage, type Stores, type TransactionOptions } from './ports/storage.ts';
export { type WakeTopic, type WakeUps } from './ports/wake-ups.ts';
export { type NewTokenRow, type TokenCredentials, type TokenStore } from './ports/token-store.ts';
export { type NewUserRow, type UserByEmail, type UserChanges, type UserStore } from './ports/user-store.ts';
export {
  type AttemptDelivery,
  type DeliveryProgress,
  type DueDelivery,
  type FanOutResult,
  type NewAttemptRow,
  type NewWebhookEndpointRow,
  type WebhookDeliveryStore,
  type WebhookEndpointChanges,
  type WebhookEndpointStore,
} from './ports/webhook-store.ts';
export { catalogueOf } from './reports/report-catalogues.ts';
export { type RqlFilter, type RqlPattern, type RqlScalar, type RqlTest } from './reports/rql/rql-ast.ts';
export { foldPattern } from './reports/rql/rql-pattern.ts';
export { foldCase } from './shared/fold-case.ts';
export { type UserRef } from './shared/schema.ts';
export { runSyncBatch } from './shared/sync-batch.ts';
