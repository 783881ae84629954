/**
 * Every action the audit log records, `<resource type>.<what happened>` (docs/operations.md lists
 * them). Typed, so a call site cannot invent a spelling the documented filters would miss.
 */
export const auditActions = [
  'user.created',
  'user.updated',
  'group.created',
  'group.updated',
  'group.deleted',
  'group.members_changed',
  'group.owners_changed',
  'api_token.created',
  'api_token.revoked',
  'console.signed_in',
  'content_item.created',
  'content_item.updated',
  'content_item.deleted',
  'content_item.archived',
  'content_item.unarchived',
  'content_item.media_status_changed',
  'channel.created',
  'channel.updated',
  'location.created',
  'location.updated',
  'assignment.created',
  'assignment.updated',
  'assignment.state_changed',
  'assignment.deleted',
  'enrollment.created',
  'enrollment.updated',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.delivery_retried',
  'webhook_endpoint.recovered',
  'saved_report.created',
  'saved_report.updated',
  'saved_report.deleted',
  'calendar_feed.created',
  'calendar_feed.deleted',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** Actions whose resource is not named by their prefix: a console sign-in is about its user. */
export const auditResourceTypes: Partial<Record<AuditAction, string>> = { 'console.signed_in': 'user' };

/** The resource type an action's entries are filed under (`user.updated` → `user`). */
export const auditResourceTypeOf = (action: AuditAction): string => auditResourceTypes[action] ?? action.slice(0, action.lastIndexOf('.'));

/** Every resource type the audit log files entries under, in the order of their first action: the `resource_type` filter's values. */
export const auditResourceTypeNames: readonly string[] = [...new Set(auditActions.map(auditResourceTypeOf))];
