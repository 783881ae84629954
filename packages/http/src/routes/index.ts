import type { Lectern } from '@lectern/core';
import type { RouteTable } from '../router.ts';
import type { SignInLogger } from '../console/oidc-relying-party.ts';
import { apiTokenRoutes } from './api-tokens.ts';
import { assignmentRoutes } from './assignments.ts';
import { auditLogRoutes } from './audit-log.ts';
import { bulkJobRoutes } from './bulk-jobs.ts';
import { channelRoutes, contentRoutes } from './content.ts';
import { consoleRoutes } from './console.ts';
import { enrollmentRoutes } from './enrollments.ts';
import { eventRoutes } from './events.ts';
import { groupRoutes } from './groups.ts';
import { importRoutes } from './imports.ts';
import { insightRoutes } from './insights.ts';
import { locationRoutes } from './locations.ts';
import { meRoutes } from './me.ts';
import { LecternMetrics } from '../metrics/metrics.ts';
import { metricsRoutes } from './metrics.ts';
import { openApiRoutes } from './openapi.ts';
import { apiReferenceRoutes } from './api-reference.ts';
import type { ViewerFileSource } from '../api-reference/reference-page.ts';
import { installedViewerFiles } from '../api-reference/viewer-files.ts';
import { savedReportRoutes } from './reports.ts';
import { userRoutes } from './users.ts';
import { webhookRoutes } from './webhooks.ts';
import { calendarRoutes } from './calendars.ts';
import { notificationRoutes } from './notifications.ts';
import { aboutRoutes } from './about.ts';
import { describeProbes } from './probes.ts';

export interface RouteOptions {
  /** where the API reference page's viewer files come from; the installed package by default */
  viewerFiles?: ViewerFileSource;
  /** the app's metrics, which it records every response in; a fresh set when not given */
  metrics?: LecternMetrics;
  /** where refused single sign-ons are logged, with their reason */
  logger?: SignInLogger;
}

/** Every area's routes, in one list so a newcomer sees the whole API surface here. */
export function registerRoutes(routes: RouteTable, lectern: Lectern, options: RouteOptions = {}): RouteTable {
  meRoutes(routes, lectern);
  userRoutes(routes, lectern);
  groupRoutes(routes, lectern);
  apiTokenRoutes(routes, lectern);
  contentRoutes(routes, lectern);
  channelRoutes(routes, lectern);
  assignmentRoutes(routes, lectern);
  insightRoutes(routes, lectern);
  webhookRoutes(routes, lectern);
  auditLogRoutes(routes, lectern);
  locationRoutes(routes, lectern);
  eventRoutes(routes, lectern);
  enrollmentRoutes(routes, lectern);
  savedReportRoutes(routes, lectern);
  consoleRoutes(routes, lectern, options.logger);
  importRoutes(routes, lectern);
  calendarRoutes(routes, lectern);
  bulkJobRoutes(routes, lectern);
  notificationRoutes(routes, lectern);
  aboutRoutes(routes, lectern);
  metricsRoutes(routes, options.metrics ?? new LecternMetrics(lectern));
  openApiRoutes(routes);
  apiReferenceRoutes(routes, options.viewerFiles ?? installedViewerFiles());
  describeProbes(routes);
  return routes.finalize();
}
