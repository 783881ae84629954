/**
 * Every page of the console: its address under /console/, its title (the h1 and the navigation
 * link's name) and the scope that lets a token see it. Pages load lazily, so the first load
 * carries only the shell and the page asked for.
 */
import type { ComponentType } from 'preact';
import type { EarlyLoader } from '../api/list.ts';
import type { Me, Scope } from '../api/types.ts';
import { loadAssignments } from './assignments/list-load.ts';
import { loadUsers } from './users/list-load.ts';

type Role = Me['user']['role'];

export interface PageEntry {
  path: string;
  title: string;
  /** any one of these scopes shows the page; none means every signed-in token */
  scopes?: Scope[];
  /** roles that may use it, when the scopes alone do not say (a learner's token carries assignments:write for its own work, not for bulk work) */
  roles?: Role[];
  load: () => Promise<ComponentType>;
  /** the call of the list at the page's own address, which the shell starts on a first load of it */
  list?: Pick<EarlyLoader<unknown>, 'start'>;
}

export const pages: PageEntry[] = [
  { path: '', title: 'Overview', load: () => import('./overview/index.tsx').then((m) => m.OverviewPage) },
  {
    path: 'users',
    title: 'Users',
    scopes: ['users:read'],
    load: () => import('./users/index.tsx').then((m) => m.UsersPage),
    list: loadUsers,
  },
  { path: 'groups', title: 'Groups', scopes: ['groups:read'], load: () => import('./groups/index.tsx').then((m) => m.GroupsPage) },
  { path: 'content', title: 'Content', scopes: ['content:read'], load: () => import('./content/index.tsx').then((m) => m.ContentPage) },
  {
    path: 'assignments',
    title: 'Assignments',
    scopes: ['assignments:read'],
    load: () => import('./assignments/index.tsx').then((m) => m.AssignmentsPage),
    list: loadAssignments,
  },
  { path: 'events', title: 'Events', scopes: ['events:read'], load: () => import('./events/index.tsx').then((m) => m.EventsPage) },
  {
    path: 'enrollments',
    title: 'Enrollments',
    scopes: ['enrollments:read'],
    load: () => import('./enrollments/index.tsx').then((m) => m.EnrollmentsPage),
  },
  {
    path: 'imports',
    title: 'Imports',
    scopes: ['users:write', 'assignments:write', 'enrollments:write'],
    roles: ['admin', 'organizer'],
    load: () => import('./imports/index.tsx').then((m) => m.ImportsPage),
  },
  {
    path: 'bulk-jobs',
    title: 'Bulk jobs',
    scopes: ['users:read', 'assignments:read', 'enrollments:read'],
    roles: ['admin', 'organizer'],
    load: () => import('./bulk-jobs/index.tsx').then((m) => m.BulkJobsPage),
  },
  { path: 'reports', title: 'Reports', scopes: ['reports:read'], load: () => import('./reports/index.tsx').then((m) => m.ReportsPage) },
  { path: 'tokens', title: 'API tokens', scopes: ['tokens:read'], load: () => import('./tokens/index.tsx').then((m) => m.TokensPage) },
  {
    path: 'webhooks',
    title: 'Webhooks',
    scopes: ['webhooks:read'],
    load: () => import('./webhooks/index.tsx').then((m) => m.WebhooksPage),
  },
  {
    path: 'locations',
    title: 'Locations',
    scopes: ['events:read'],
    load: () => import('./locations/index.tsx').then((m) => m.LocationsPage),
  },
  {
    path: 'audit-log',
    title: 'Audit log',
    scopes: ['audit:read'],
    load: () => import('./audit-log/index.tsx').then((m) => m.AuditLogPage),
  },
  {
    path: 'notifications',
    title: 'Notifications',
    scopes: ['notifications:read'],
    load: () => import('./notifications/index.tsx').then((m) => m.NotificationsPage),
  },
  {
    path: 'calendar',
    title: 'Calendar',
    scopes: ['enrollments:read'],
    load: () => import('./calendar/index.tsx').then((m) => m.CalendarPage),
  },
  { path: 'about', title: 'About', load: () => import('./about/index.tsx').then((m) => m.AboutPage) },
];
