/**
 * Migrations are code, compiled into the bundle and the single executable, so there is no folder
 * to ship. Add a file `NNNN-name.ts` exporting `up`, and list it here; names sort in run order.
 */
import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001-foundation.ts';
import * as content from './0002-content.ts';
import * as webhooks from './0003-webhooks.ts';
import * as assignments from './0004-assignments.ts';
import * as events from './0005-events.ts';
import * as reports from './0006-reports.ts';
import * as unicodeCase from './0007-unicode-case.ts';
import * as jobItemResults from './0008-job-item-results.ts';
import * as processLeases from './0009-process-leases.ts';
import * as postgresFunctions from './0010-postgres-functions.ts';
import * as rateLimitWindows from './0011-rate-limit-windows.ts';
import * as searchIndex from './0012-search-index.ts';
import * as assignmentTotals from './0013-assignment-totals.ts';
import * as contentAccessFlag from './0014-content-access-flag.ts';
import * as imports from './0015-imports.ts';
import * as auditLog from './0016-audit-log.ts';
import * as signInLinks from './0017-sign-in-links.ts';
import * as importRowsTooLong from './0018-import-rows-too-long.ts';
import * as eventSeatCounts from './0019-event-seat-counts.ts';
import * as calendarsAndEmail from './0020-calendars-and-email.ts';
import * as oidcRequests from './0021-oidc-requests.ts';
import * as webhookRecoveryJobList from './0022-webhook-recovery-job-list.ts';
import * as scimIdentities from './0023-scim-identities.ts';
import * as userAssignmentCounts from './0024-user-assignment-counts.ts';
import * as completionsIndex from './0025-completions-index.ts';
import * as contentCreatedCovering from './0026-content-created-covering.ts';
import * as assignmentCreatedTotals from './0027-assignment-created-totals.ts';

const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-content': content,
  '0003-webhooks': webhooks,
  '0004-assignments': assignments,
  '0005-events': events,
  '0006-reports': reports,
  '0007-unicode-case': unicodeCase,
  '0008-job-item-results': jobItemResults,
  '0009-process-leases': processLeases,
  '0010-postgres-functions': postgresFunctions,
  '0011-rate-limit-windows': rateLimitWindows,
  '0012-search-index': searchIndex,
  '0013-assignment-totals': assignmentTotals,
  '0014-content-access-flag': contentAccessFlag,
  '0015-imports': imports,
  '0016-audit-log': auditLog,
  '0017-sign-in-links': signInLinks,
  '0018-import-rows-too-long': importRowsTooLong,
  '0019-event-seat-counts': eventSeatCounts,
  '0020-calendars-and-email': calendarsAndEmail,
  '0021-oidc-requests': oidcRequests,
  '0022-webhook-recovery-job-list': webhookRecoveryJobList,
  '0023-scim-identities': scimIdentities,
  '0024-user-assignment-counts': userAssignmentCounts,
  '0025-completions-index': completionsIndex,
  '0026-content-created-covering': contentCreatedCovering,
  '0027-assignment-created-totals': assignmentCreatedTotals,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
