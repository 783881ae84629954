/**
 * How list items become the lines of an export: NDJSON writes each item as the list returns it;
 * CSV writes the item's fields as columns, a nested object as dotted columns (`user.public_id`,
 * `user.email`), through core's one CSV writer (formula guard, empty nulls, arrays as JSON).
 */
import { csvLine, csvLines, type CsvCell } from '@lectern/core';
import { z } from 'zod';

export const exportFormats = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const mediaTypes: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

type Item = Record<string, unknown>;

const isObject = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A column: its dotted name and the path of keys to its value. */
interface Column {
  name: string;
  path: readonly string[];
}

/** A field's shape as seen so far: a cell, or an object with fields of its own (in first-seen order). */
type Shape = { kind: 'cell' } | { kind: 'object'; fields: Map<string, Shape> };

/** A value's shape: an object with its fields' shapes, anything else a cell. */
function shapeOfValue(value: unknown): Shape {
  if (!isObject(value)) return { kind: 'cell' };
  const fields = new Map<string, Shape>();
  for (const key in value) fields.set(key, shapeOfValue(value[key]));
  return { kind: 'object', fields };
}

function columnsOf(fields: Map<string, Shape>, prefix: readonly string[], into: Column[]): Column[] {
  for (const [key, shape] of fields) {
    const path = [...prefix, key];
    if (shape.kind === 'object' && shape.fields.size > 0) columnsOf(shape.fields, path, into);
    else into.push({ name: path.join('.'), path });
  }
  return into;
}

/**
 * A described item's shape: its fields in order, a nested object (a reference such as `user` or
 * `manager`, nullable or not) with fields of its own, a union of objects with the fields of all.
 */
function shapeOfSchema(schema: z.ZodType): Shape {
  if (schema instanceof z.ZodObject) {
    const fields = new Map<string, Shape>();
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) fields.set(key, shapeOfSchema(field));
    return { kind: 'object', fields };
  }
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    return shapeOfSchema(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return shapeOfSchema(schema.out as z.ZodType);
  if (schema instanceof z.ZodLazy) return shapeOfSchema(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    const options = (schema.options as z.ZodType[]).map(shapeOfSchema);
    if (options.every((option) => option.kind === 'object')) {
      const fields = new Map<string, Shape>();
      for (const option of options) for (const [key, field] of option.fields) fields.set(key, mergeShapes(fields.get(key), field));
      return { kind: 'object', fields };
    }
  }
  return { kind: 'cell' };
}

/** Both shapes' fields, `into`'s first; a field that is a cell in one and an object in the other is the object. */
function mergeShapes(into: Shape | undefined, shape: Shape): Shape {
  if (into?.kind !== 'object' || shape.kind !== 'object') return shape.kind === 'object' ? shape : (into ?? shape);
  for (const [key, field] of shape.fields) into.fields.set(key, mergeShapes(into.fields.get(key), field));
  return into;
}

/**
 * The CSV columns of a list: every field of its described item (`schema`, from the OpenAPI
 * description of the route) in order, a nested object as one column per field of it, so a
 * reference that is null in the first rows still has its columns; then any field the items of
 * the first batch have that the description lacks (a saved report's rows, described loosely).
 */
export function csvColumns(items: readonly Item[], schema?: z.ZodType): Column[] {
  let shape: Shape = schema ? shapeOfSchema(schema) : { kind: 'object', fields: new Map() };
  if (shape.kind !== 'object') shape = { kind: 'object', fields: new Map() };
  for (const item of items) shape = mergeShapes(shape, shapeOfValue(item));
  return shape.kind === 'object' ? columnsOf(shape.fields, [], []) : [];
}

function cellAt(item: Item, path: readonly string[]): CsvCell {
  let value: unknown = item;
  for (const key of path) {
    if (!isObject(value)) return null;
    value = value[key];
  }
  return value as CsvCell;
}

/** Writes the lines of one format: `start` with the first batch (it fixes the CSV columns), then `encode`. */
export interface RowEncoder {
  /** what comes before the rows: the CSV header, from the described item and the first batch */
  start(items: readonly Item[], schema?: z.ZodType): string;
  /** the lines of some items */
  encode(items: readonly Item[]): string;
}

export function rowEncoder(format: ExportFormat): RowEncoder {
  if (format === 'ndjson') {
    return {
      start: () => '',
      encode: (items) => {
        let text = '';
        for (const item of items) text += `${JSON.stringify(item)}\n`;
        return text;
      },
    };
  }
  let columns: Column[] = [];
  return {
    start(items, schema) {
      // an empty list still has its header: the described item names the columns
      columns = csvColumns(items, schema);
      return columns.length === 0 ? '' : csvLine(columns.map((column) => column.name));
    },
    encode: (items) => csvLines(items.map((item) => columns.map((column) => cellAt(item, column.path)))),
  };
}
