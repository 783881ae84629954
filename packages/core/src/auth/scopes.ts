/** Scope names and the grants of each role (docs/api.md). */
import { z } from 'zod';

export const scopes = [
  'users:read',
  'users:write',
  'groups:read',
  'groups:write',
  'content:read',
  'content:write',
  'assignments:read',
  'assignments:write',
  'events:read',
  'events:write',
  'enrollments:read',
  'enrollments:write',
  'insights:read',
  'reports:read',
  'reports:write',
  'tokens:read',
  'tokens:write',
  'webhooks:read',
  'webhooks:write',
  'metrics:read',
  'audit:read',
  'notifications:read',
  // SCIM provisioning (docs/identity.md): an identity provider's token, for admins only
  'scim:write',
] as const;
export type Scope = (typeof scopes)[number];
export const scopeSchema = z.enum(scopes);

export const roles = ['admin', 'organizer', 'user'] as const;
export type Role = (typeof roles)[number];
export const roleSchema = z.enum(roles);

/**
 * What each role may do at all. Object-level limits (organizers write only groups they own,
 * users see only their own records) are enforced by each area's service.
 */
export const roleGrants: Record<Role, ReadonlySet<Scope>> = {
  admin: new Set(scopes),
  // everything but managing people's accounts and the webhook subscriptions
  organizer: new Set<Scope>(
    scopes.filter(
      (scope) =>
        !['users:write', 'webhooks:read', 'webhooks:write', 'metrics:read', 'audit:read', 'notifications:read', 'scim:write'].includes(
          scope,
        ),
    ),
  ),
  // events:read so a learner can find the sessions it may enroll in (only those it may see)
  user: new Set<Scope>([
    'content:read',
    'events:read',
    'assignments:read',
    'assignments:write',
    'enrollments:read',
    'enrollments:write',
    'tokens:read',
    'tokens:write',
  ]),
};

export const grantedScopes = (role: Role): Scope[] => scopes.filter((scope) => roleGrants[role].has(scope));
