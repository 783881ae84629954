import { auditActions, auditEntrySchema, auditResourceTypeNames, type Lectern } from '@lectern/core';
import { z } from 'zod';
import { cursorPaging, named, type OperationSpec } from '../operation-spec.ts';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const text = (description: string) => ({ schema: { type: 'string' }, description });
const instant = { schema: { type: 'string', anyOf: [{ format: 'date-time' }, { format: 'date' }] } };

const auditLogSpec: OperationSpec = {
  summary: 'Who changed what: the audit log, newest first (cursor pages)',
  tag: 'Audit log',
  scope: 'audit:read',
  query: {
    extra: {
      ...cursorPaging('Entries', 'aud'),
      actor: { schema: { type: 'string', format: 'uuid' }, description: 'Only the changes made by this user (public_id)' },
      action: { schema: { type: 'string', enum: auditActions }, description: 'Only this action, e.g. `user.updated`' },
      resource_type: {
        schema: { type: 'string', enum: auditResourceTypeNames },
        description: 'Only changes to this type of resource, e.g. `user`, `webhook_endpoint`',
      },
      resource_id: text('Only changes to the resource with this public_id'),
      occurred_at__gte: { ...instant, description: 'Only entries at or after this date or datetime (ISO 8601)' },
      occurred_at__lte: { ...instant, description: 'Only entries at or before this date or datetime (ISO 8601)' },
    },
  },
  response: {
    status: 200,
    schema: named(
      'AuditEntryPage',
      z.object({
        data: z.array(auditEntrySchema),
        meta: z.object({ page_size: z.number().int(), next_cursor: z.string().nullable() }),
      }),
    ),
  },
};

export function auditLogRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get('/api/v2/audit-log', auditLogSpec, async (rc) => ok(await lectern.auditLog.list(rc.ctx, rc.query)));
}
