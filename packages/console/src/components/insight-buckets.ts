/** The bars of an insight answer (`{completed: {count, percentage}, …}`); the OpenAPI document types it only as an object. */
import type { Bar } from './bar-chart.tsx';

export type Bucket = { count?: number; percentage?: number };

/** The {name: {count}} buckets of an insight, in the order the server gives them. */
export function buckets(insight: unknown, names?: string[]): Bar[] {
  const record = (insight ?? {}) as Record<string, unknown>;
  const keys =
    names ??
    Object.keys(record).filter((key) => typeof record[key] === 'object' && record[key] !== null && 'count' in (record[key] as object));
  return keys.map((key) => ({ label: key.replace('_', ' '), value: Number((record[key] as Bucket | undefined)?.count ?? 0) }));
}
