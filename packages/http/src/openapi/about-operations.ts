/**
 * The About route's description, yielded by operations.ts with the rest (which checks its type:
 * importing the type from there would make an import circle).
 */
import { aboutSchema } from '@lectern/core';

export const aboutOperation = {
  summary:
    "This server's version and Node version for any signed-in caller; for admins also its database, instance id and which optional features (webhooks, email, single sign-on, SCIM) are configured, never their secrets",
  tag: 'Meta',
  scope: 'token' as const,
  response: { status: 200, schema: aboutSchema },
};
