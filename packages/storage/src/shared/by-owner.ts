/** Groups rows of a one-to-many read by their owner's id. */
export function byOwner<R extends { owner: number }, V>(rows: readonly R[], value: (row: R) => V): Map<number, V[]> {
  const grouped = new Map<number, V[]>();
  for (const row of rows) {
    const list = grouped.get(row.owner) ?? [];
    list.push(value(row));
    grouped.set(row.owner, list);
  }
  return grouped;
}
