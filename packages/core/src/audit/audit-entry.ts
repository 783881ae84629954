/**
 * An audit log entry (docs/operations.md, "Audit log"): who changed what, when, through which
 * token and request, and for updates which fields went from what to what. Read newest first in
 * cursor pages, as webhook delivery attempts are.
 */
import { z } from 'zod';
import { badRequest } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parsePageSize, queryParam, type QueryParams } from '../shared/list-query.ts';
import { parseDatetimeBound } from '../shared/time.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import { auditActions, auditResourceTypeNames } from './audit-actions.ts';

export const AUDIT_ID_PREFIX = 'aud_';
const AUDIT_ID = /^aud_[0-9A-HJKMNP-TV-Z]{26}$/;

export const auditEntrySchema = z
  .object({
    id: z.string(),
    occurred_at: z.string(),
    /** `<resource type>.<what happened>`, e.g. `user.updated`, `api_token.revoked` */
    action: z.string(),
    /** the user who made the change; null when the command line (or the embedding application) did */
    actor: z.object({ public_id: z.string(), email: z.string() }).nullable(),
    token_public_id: z.string().nullable(),
    request_id: z.string().nullable(),
    resource: z.object({ type: z.string(), public_id: z.string() }),
    /** `{field: {from, to}}` for updates; null for creations, deletions and other actions */
    changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).nullable(),
  })
  .register(apiSchemaNames, { id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export interface AuditQuery {
  pageSize: number;
  /** the id of the last entry of the previous page */
  cursor?: string;
  /** the actor's public id */
  actor?: string;
  action?: string;
  resourceType?: string;
  resourceId?: string;
  /** inclusive bounds on `occurred_at`, normalised to stored form */
  occurredFrom?: string;
  occurredTo?: string;
}

function datetimeFilter(params: QueryParams, name: string, bound: 'gte' | 'lte'): string | undefined {
  const raw = queryParam(params, name);
  if (raw === undefined || raw === '') return undefined;
  const value = parseDatetimeBound(raw, bound);
  if (value === null) throw badRequest(`Query parameter '${name}' must be an ISO-8601 date or datetime.`);
  return value;
}

function oneOf(value: string | undefined, name: string, values: readonly string[]): string | undefined {
  if (value === undefined || values.includes(value)) return value;
  throw badRequest(`Query parameter '${name}' must be one of: ${values.join(', ')}.`);
}

export function parseAuditQuery(params: QueryParams): AuditQuery {
  const query: AuditQuery = { pageSize: parsePageSize(params) };
  const text = (name: string) => {
    const value = queryParam(params, name);
    return value === undefined || value === '' ? undefined : value;
  };
  const cursor = text('cursor');
  if (cursor !== undefined) {
    if (!AUDIT_ID.test(cursor)) throw badRequest("Query parameter 'cursor' is not a cursor this list returned.");
    query.cursor = cursor;
  }
  const actor = text('actor');
  if (actor !== undefined) {
    if (!isUuid(actor)) throw badRequest("Query parameter 'actor' must be a user's public_id.");
    query.actor = actor.toLowerCase();
  }
  // a misspelt action or type would match nothing and read as "no such change": say so instead
  query.action = oneOf(text('action'), 'action', auditActions);
  query.resourceType = oneOf(text('resource_type'), 'resource_type', auditResourceTypeNames);
  const resourceId = text('resource_id');
  if (resourceId !== undefined) query.resourceId = resourceId;
  const from = datetimeFilter(params, 'occurred_at__gte', 'gte');
  if (from !== undefined) query.occurredFrom = from;
  const to = datetimeFilter(params, 'occurred_at__lte', 'lte');
  if (to !== undefined) query.occurredTo = to;
  return query;
}
