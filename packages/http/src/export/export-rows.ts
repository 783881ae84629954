/**
 * How list items become the lines of an export: NDJSON writes each item as the list returns it;
 * CSV writes the item's fields as columns, a nested object as dotted columns (`user.public_id`,
 * `user.email`), through core's one CSV writer (formula guard, empty nulls, arrays as JSON).
 */
import { csvLine, csvLines, type CsvCell } from '@lectern/core';

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

function merge(shape: Shape | undefined, value: unknown): Shape {
  if (!isObject(value)) return shape ?? { kind: 'cell' };
  // a field that is null in one row and an object in another is the object's columns
  const fields = shape?.kind === 'object' ? shape.fields : new Map<string, Shape>();
  for (const key in value) fields.set(key, merge(fields.get(key), value[key]));
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
 * The CSV columns of a list, from the items of its first batch: every field in order, a nested
 * object (a reference such as `user`) as one column per field of it. Lectern's list items have one
 * shape per resource, so the first batch shows every column; a nullable reference that is null in
 * every row of it is one empty column.
 */
export function csvColumns(items: readonly Item[]): Column[] {
  let shape: Shape = { kind: 'object', fields: new Map() };
  for (const item of items) shape = merge(shape, item);
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
  /** what comes before the rows: the CSV header, from the items of the first batch */
  start(items: readonly Item[]): string;
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
    start(items) {
      if (items.length === 0) return '';
      columns = csvColumns(items);
      return csvLine(columns.map((column) => column.name));
    },
    encode: (items) => csvLines(items.map((item) => columns.map((column) => cellAt(item, column.path)))),
  };
}
