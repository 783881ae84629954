/**
 * Where each of the API's `field_errors` is shown. Keys are field paths: `email`, or an entry of
 * an array or object field, `member_ids.0`, `timeslots.1.starts_at`. A field shows the errors of
 * its own name and of every path under it; what no field on the page shows goes above the form.
 */

const under = (key: string, name: string) => key === name || key.startsWith(`${name}.`);

/** `member_ids.0` → "Entry 1", `timeslots.1.starts_at` → "Entry 2, starts_at": the part after the field's name. */
function entryLabel(key: string, name: string): string {
  const rest = key.slice(name.length + 1).split('.');
  return rest.map((part) => (/^\d+$/.test(part) ? `Entry ${Number(part) + 1}` : part)).join(', ');
}

/** The messages a field named `name` shows: its own, then each entry's, named. */
export function errorsOf(errors: Record<string, string[]>, name: string): string[] {
  const messages: string[] = [];
  for (const [key, list] of Object.entries(errors)) {
    if (!under(key, name)) continue;
    for (const message of list) messages.push(key === name ? message : `${entryLabel(key, name)}: ${message}`);
  }
  return messages;
}

/** The messages no field in `shown` shows, each with its field's path. */
export function strayErrors(errors: Record<string, string[]>, shown: readonly string[]): string[] {
  const stray: string[] = [];
  for (const [key, list] of Object.entries(errors)) {
    if (shown.some((name) => under(key, name))) continue;
    for (const message of list) stray.push(`${key}: ${message}`);
  }
  return stray;
}
