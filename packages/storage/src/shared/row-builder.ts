/**
 * A function building one statement's row objects from its values, with the columns as literal
 * keys: later duplicates win, as when a driver builds the object itself (better-sqlite3, pg).
 * Columns that include `__proto__` need another way: an object literal sets the prototype rather
 * than a property of that name.
 */
export function rowBuilder(columns: readonly string[]): (values: unknown[]) => Record<string, unknown> {
  const properties = columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${properties} };`) as (values: unknown[]) => Record<string, unknown>;
}
