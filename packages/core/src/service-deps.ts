import type { AuditRecorder } from './audit/audit-recorder.ts';
import type { LecternConfig } from './config.ts';
import type { Storage } from './ports/storage.ts';
import type { Clock } from './shared/clock.ts';
import type { IdGenerator } from './shared/ids.ts';
import type { EventRecorder } from './webhooks/event-recorder.ts';

/** What every service is built from. */
export interface ServiceDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** records webhook events in the transaction of the change (the transactional outbox) */
  outbox: EventRecorder;
  /** records the audit entry of each change in its transaction, beside its webhook events */
  audit: AuditRecorder;
  config: LecternConfig;
}
