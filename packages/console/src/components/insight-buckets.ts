/** The bars of an insight answer (`{total, completed: {count, percentage}, …}`), in the order the server gives them. */
import type { components } from '../api/schema.d.ts';
import type { Bar } from './bar-chart.tsx';

// every insight's buckets have this one shape
type Bucket = components['schemas']['CompletionInsight']['completed'];

/** Every bucket of an insight (its counts, not its `total`) as a bar. */
export function buckets(insight: Readonly<Record<string, number | Bucket>>): Bar[] {
  return Object.entries(insight).flatMap(([key, value]) =>
    typeof value === 'number' ? [] : [{ label: key.replace('_', ' '), value: value.count }],
  );
}
