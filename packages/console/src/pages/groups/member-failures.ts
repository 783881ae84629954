/** The failures a refused membership change names (`member_ids.N`), by the rows they stand for. */
export function memberFailures<T>(
  rows: readonly T[],
  fieldErrors: Record<string, string[]>,
  name: (row: T) => string,
): { name: string; reason: string }[] {
  return Object.entries(fieldErrors).flatMap(([key, messages]) => {
    const index = /^member_ids\.(\d+)$/.exec(key)?.[1];
    const row = index === undefined ? undefined : rows[Number(index)];
    return row === undefined ? [] : [{ name: name(row), reason: messages.join(' ') }];
  });
}
