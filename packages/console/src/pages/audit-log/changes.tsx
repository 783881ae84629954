/** An update's field changes, one line each as `field: from → to`. */
import type { GetResult } from '../../api/types.ts';

export type AuditEntry = GetResult<'/api/v2/audit-log'>['data'][number];

/** A value as a person reads it: text as is, nothing as "none", anything else as compact JSON. */
export function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function Changes({ changes }: { changes: AuditEntry['changes'] }) {
  if (!changes) return <span class="muted">—</span>;
  return (
    <ul class="changes">
      {Object.entries(changes).map(([field, change]) => (
        <li key={field}>
          <code>{field}</code>: {shown(change.from)} → {shown(change.to)}
        </li>
      ))}
    </ul>
  );
}
