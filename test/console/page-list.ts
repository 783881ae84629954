/** Every page of the console's navigation, for the tests that visit them all (pages, dark mode). */

/** Navigation link, address under /console/, screenshot name. */
export const PAGES: ReadonlyArray<[string, string, string]> = [
  ['Overview', '', 'overview'],
  ['Users', 'users', 'users'],
  ['Groups', 'groups', 'groups'],
  ['Content', 'content', 'content'],
  ['Assignments', 'assignments', 'assignments'],
  ['Events', 'events', 'events'],
  ['Enrollments', 'enrollments', 'enrollments'],
  ['Imports', 'imports', 'imports'],
  ['Bulk jobs', 'bulk-jobs', 'bulk-jobs'],
  ['Reports', 'reports', 'reports'],
  ['API tokens', 'tokens', 'tokens'],
  ['Webhooks', 'webhooks', 'webhooks'],
  ['Locations', 'locations', 'locations'],
  ['Audit log', 'audit-log', 'audit-log'],
  ['Notifications', 'notifications', 'notifications'],
  ['Calendar', 'calendar', 'calendar'],
  ['About', 'about', 'about'],
];
