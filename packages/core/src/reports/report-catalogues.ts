/**
 * The RQL field catalogue of each resource a saved report can run over, derived from the zod schema
 * of the resource's GET shape so that a field added to a response is a report property too
 * (docs/rql.md "Fields"): every scalar field, the scalar fields of each object it references one level
 * deep (`manager.email`), and arrays as lists (`tags`; `groups.name` for a list of objects).
 *
 * The SQL side of each catalogue is a field mapping beside the resource's list query in storage;
 * a storage test checks that the two name the same fields.
 */
import { z } from 'zod';
import { assignmentListSpec, assignmentSchema } from '../assignments/assignment.ts';
import { enrollmentListSpec, enrollmentSchema } from '../enrollments/enrollment.ts';
import { eventListSpec, eventViewSchema } from '../events/event.ts';
import { contentListSpec, contentSummarySchema } from '../content/content-item.ts';
import { groupListSpec, groupSchema } from '../groups/group.ts';
import type { ListSpec } from '../shared/list-query.ts';
import { searchableFields, unwrapField } from '../shared/listed-fields.ts';
import { userListSpec, userSchema } from '../users/user.ts';
import type { RqlCatalogue, RqlField, RqlFieldType } from './rql/rql-fields.ts';
import type { ReportResource } from './saved-report.ts';

type TextType = Extract<RqlFieldType, 'string' | 'uuid' | 'date' | 'datetime'>;

/**
 * The type a text field is compared as, from its name: the API names ids, dates and datetimes
 * consistently, and a typed field is what makes `gt(created,2026-01-01)` compare instants rather
 * than strings and reject `eq(public_id,abc)` when the report is saved.
 */
function textTypeOf(name: string): TextType {
  if (name === 'public_id') return 'uuid';
  if (name === 'created' || name === 'modified' || name.endsWith('_at') || name.endsWith('_datetime')) return 'datetime';
  if (name.endsWith('_date') || name.endsWith('_on')) return 'date';
  return 'string';
}

const unwrap = unwrapField;

function scalar(schema: z.ZodType, nullable: boolean, textType: TextType): RqlField | undefined {
  const base = nullable ? { nullable: true } : {};
  if (schema instanceof z.ZodString) return { type: textType, ...base };
  if (schema instanceof z.ZodNumber) return { type: schema.isInt ? 'integer' : 'number', ...base };
  if (schema instanceof z.ZodBoolean) return { type: 'boolean', ...base };
  if (schema instanceof z.ZodEnum) return { type: 'enum', values: schema.options.map(String), ...base };
  if (schema instanceof z.ZodLiteral) return { type: 'enum', values: [...schema.values].map(String), ...base };
  return undefined;
}

const isText = (schema: z.ZodType) => schema instanceof z.ZodString || schema instanceof z.ZodEnum || schema instanceof z.ZodLiteral;

export interface CatalogueOptions {
  /** fields the `search` pseudo-field covers: those the resource's list `search` covers */
  searchable: readonly string[];
  /** text types the naming conventions of textTypeOf do not give */
  textTypes?: Readonly<Record<string, TextType>>;
}

/** The catalogue of a GET shape (see the file comment for what becomes a property). */
export function catalogueOf(shape: z.ZodObject, options: CatalogueOptions): RqlCatalogue {
  const fields: Record<string, RqlField> = {};
  const textType = (path: string, name: string) => options.textTypes?.[path] ?? textTypeOf(name);
  for (const [key, value] of Object.entries(shape.shape)) {
    const { inner, nullable } = unwrap(value as z.ZodType);
    if (inner instanceof z.ZodObject) {
      for (const [sub, subValue] of Object.entries(inner.shape)) {
        const part = unwrap(subValue as z.ZodType);
        const field = scalar(part.inner, nullable || part.nullable, textType(`${key}.${sub}`, sub));
        if (field) fields[`${key}.${sub}`] = field;
      }
    } else if (inner instanceof z.ZodArray) {
      const element = unwrap(inner.element as z.ZodType).inner;
      if (isText(element)) fields[key] = { type: 'string-array' };
      else if (element instanceof z.ZodObject) {
        const parts = Object.entries(element.shape)
          .filter(([, subValue]) => isText(unwrap(subValue as z.ZodType).inner))
          .map(([sub]) => `${key}.${sub}`);
        // a list of references (`groups`) can be named as a whole; a list of records (`timeslots`) by field only
        if ('public_id' in element.shape) fields[key] = { type: 'string-array', anyOf: parts };
        for (const part of parts) fields[part] = { type: 'string-array' };
      }
    } else {
      const field = scalar(inner, nullable, textType(key, key));
      if (field) fields[key] = field;
    }
  }
  return { fields, searchable: options.searchable };
}

/** What a saved report needs of a resource besides its list method. */
export interface ReportResourceDefinition {
  catalogue: RqlCatalogue;
  /** the resource's list parameters: what `/results/` accepts on top, and what `ordering` may name */
  listSpec: ListSpec;
}

/** Every resource reports can run over in this build (the others of `reportResources` arrive with their areas). */
export const reportResourceDefinitions: Partial<Record<ReportResource, ReportResourceDefinition>> = {
  users: {
    catalogue: catalogueOf(userSchema, { searchable: searchableFields(userSchema), textTypes: { date_joined: 'datetime' } }),
    listSpec: userListSpec,
  },
  groups: {
    catalogue: catalogueOf(groupSchema, { searchable: searchableFields(groupSchema) }),
    listSpec: groupListSpec,
  },
  content_items: {
    catalogue: catalogueOf(contentSummarySchema, { searchable: ['name'] }),
    listSpec: contentListSpec,
  },
  // the assignments and enrollments lists have no `search`, so neither do their reports
  assignments: {
    catalogue: catalogueOf(assignmentSchema, { searchable: [] }),
    listSpec: assignmentListSpec,
  },
  enrollments: {
    catalogue: catalogueOf(enrollmentSchema, { searchable: [] }),
    listSpec: enrollmentListSpec,
  },
  events: {
    catalogue: catalogueOf(eventViewSchema, {
      searchable: ['name'],
      textTypes: { starts_at_utc: 'datetime', ends_at_utc: 'datetime', 'location.timezone': 'string' },
    }),
    listSpec: eventListSpec,
  },
};
