/**
 * Saved reports (docs/reports.md): a named RQL filter over one resource, run through `/results/`.
 */
import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { nameField, userRefSchema } from '../shared/schema.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

export const reportResources = ['users', 'groups', 'content_items', 'assignments', 'enrollments', 'events'] as const;
export type ReportResource = (typeof reportResources)[number];
export const reportResourceSchema = z.enum(reportResources);

/** Long enough for any report a person writes; short enough that validating one stays cheap. */
export const MAX_EXPRESSION_LENGTH = 10_000;
const MAX_ORDERING_LENGTH = 1_000;

export const savedReportSchema = z
  .object({
    public_id: z.string(),
    name: listed(z.string(), { sort: true, search: true }),
    resource: listed(reportResourceSchema, { filter: 'multiple', sort: true }),
    expression: z.string(),
    /** the results' `ordering` when the request sends none, in the resource list's syntax (`-created,name`) */
    ordering: z.string().nullable(),
    /** null for a report an embedding application created as the system */
    created_by: listed(userRefSchema.nullable(), { filter: true }),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { range: 'datetime', sort: true }),
  })
  .register(apiSchemaNames, { id: 'SavedReport' });
export type SavedReport = z.infer<typeof savedReportSchema>;

export interface SavedReportRecord extends StoredRecord<SavedReport> {
  /** internal id of the creator, who may edit the report besides admins */
  createdById: number | null;
}

const expressionField = () => z.string().max(MAX_EXPRESSION_LENGTH);
/** An empty ordering means none, like null: both let the expression's ordering() or the list default apply. */
const orderingField = () =>
  z
    .string()
    .trim()
    .max(MAX_ORDERING_LENGTH)
    .nullable()
    .transform((value) => (value === '' ? null : value));

export const createSavedReportInput = z
  .strictObject({
    name: nameField(),
    resource: reportResourceSchema,
    expression: expressionField(),
    ordering: orderingField().optional(),
  })
  .register(apiSchemaNames, { id: 'SavedReportCreate' });

export const updateSavedReportInput = z
  .strictObject({
    name: nameField().optional(),
    resource: reportResourceSchema.optional(),
    expression: expressionField().optional(),
    ordering: orderingField().optional(),
  })
  .register(apiSchemaNames, { id: 'SavedReportUpdate' });

export const savedReportListSpec = listSpecOf(savedReportSchema, { defaultOrdering: ['created'] });
