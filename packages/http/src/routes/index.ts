import type { Lectern } from '@lectern/core';
import type { RouteTable } from '../router.ts';
import { apiTokenRoutes } from './api-tokens.ts';
import { assignmentRoutes } from './assignments.ts';
import { channelRoutes, contentRoutes } from './content.ts';
import { enrollmentRoutes } from './enrollments.ts';
import { eventRoutes } from './events.ts';
import { groupRoutes } from './groups.ts';
import { insightRoutes } from './insights.ts';
import { locationRoutes } from './locations.ts';
import { meRoutes } from './me.ts';
import { openApiRoutes } from './openapi.ts';
import { savedReportRoutes } from './reports.ts';
import { userRoutes } from './users.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every area's routes, in one list so a newcomer sees the whole API surface here. */
export function registerRoutes(routes: RouteTable, lectern: Lectern): RouteTable {
  meRoutes(routes, lectern);
  userRoutes(routes, lectern);
  groupRoutes(routes, lectern);
  apiTokenRoutes(routes, lectern);
  contentRoutes(routes, lectern);
  channelRoutes(routes, lectern);
  assignmentRoutes(routes, lectern);
  insightRoutes(routes, lectern);
  webhookRoutes(routes, lectern);
  locationRoutes(routes, lectern);
  eventRoutes(routes, lectern);
  enrollmentRoutes(routes, lectern);
  savedReportRoutes(routes, lectern);
  openApiRoutes(routes);
  return routes.finalize();
}
