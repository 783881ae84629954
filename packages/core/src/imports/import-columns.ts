/**
 * The header row: which input column holds which field. A file whose header names an unknown
 * column, lacks a required one, names one twice or leaves one unnamed is refused whole.
 */
import type { ImportKind } from './import-kinds.ts';

export interface ColumnMap {
  /** the input's header exactly as written, for the report */
  header: string[];
  /** field name → index of its column in every record */
  indexOf: Map<string, number>;
}

/** What is wrong with a header, in words for a person (the API's `non_field_errors`, the CLI's exit 2). */
export class HeaderError extends Error {}

export function mapColumns(kind: ImportKind, header: readonly string[]): ColumnMap {
  const indexOf = new Map<string, number>();
  header.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (name === '') throw new HeaderError(`column ${index + 1} of the header has no name`);
    if (!kind.columns.includes(name)) {
      throw new HeaderError(`unknown column '${raw.trim()}' (a ${kind.name} file has: ${kind.columns.join(', ')})`);
    }
    if (indexOf.has(name)) throw new HeaderError(`column '${name}' appears twice`);
    indexOf.set(name, index);
  });
  const missing = kind.required.filter((name) => !indexOf.has(name));
  if (missing.length > 0)
    throw new HeaderError(`missing required column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}`);
  if (kind.userReference && !indexOf.has('user_email') && !indexOf.has('user_id')) {
    throw new HeaderError(`missing column 'user_email' or 'user_id' (one of them names each row's user)`);
  }
  return { header: [...header], indexOf };
}
