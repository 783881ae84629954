/**
 * A user's audit trail on their page: the latest changes made to them and the latest they made,
 * each with a link to the audit log viewer narrowed the same way for the whole history.
 */
import { api, unwrap } from '../../api/client.ts';
import { LoadedTable } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { Link } from '../../components/link.tsx';
import { ResourceLink, type DetailKind } from '../../components/resource-link.tsx';
import { useLoad } from '../../components/use-load.ts';
import { Changes, type AuditEntry } from '../audit-log/changes.tsx';

/** how many entries each list shows before "all of them" */
export const AUDIT_TRAIL_SIZE = 10;

/** audit resource types whose records have a console page */
const PAGES: Partial<Record<string, DetailKind>> = { user: 'user', group: 'group', webhook_endpoint: 'webhook' };

function Resource({ resource }: { resource: AuditEntry['resource'] }) {
  const kind = PAGES[resource.type];
  const id = <code>{resource.public_id}</code>;
  return (
    <>
      {resource.type}{' '}
      {kind ? (
        <ResourceLink kind={kind} id={resource.public_id}>
          {id}
        </ResourceLink>
      ) : (
        id
      )}
    </>
  );
}

type Narrowing = { resource_type: 'user'; resource_id: string } | { actor: string };

export function AuditTrail({ userId, name }: { userId: string; name: string }) {
  return (
    <>
      <h2>Audit trail</h2>
      <TrailList title={`Changes to ${name}`} narrowing={{ resource_type: 'user', resource_id: userId }} />
      <TrailList title={`Changes ${name} made`} narrowing={{ actor: userId }} />
    </>
  );
}

function TrailList({ title, narrowing }: { title: string; narrowing: Narrowing }) {
  const key = JSON.stringify(narrowing);
  const loaded = useLoad(
    () => unwrap(api.GET('/api/v2/audit-log', { params: { query: { ...narrowing, page_size: AUDIT_TRAIL_SIZE } } })),
    key,
  );
  const all = `audit-log?${new URLSearchParams(narrowing).toString()}`;
  const byAction = 'actor' in narrowing;
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      <LoadedTable<AuditEntry>
        caption={`${title}, newest first`}
        loaded={loaded}
        expectedRows={3}
        rowKey={(entry) => entry.id}
        empty="No change recorded."
        columns={[
          { header: 'When', cell: (entry) => <DateCell value={entry.occurred_at} /> },
          byAction
            ? { header: 'Resource', cell: (entry) => <Resource resource={entry.resource} /> }
            : { header: 'By', cell: (entry) => entry.actor?.email ?? <span class="muted">command line</span> },
          { header: 'Action', cell: (entry) => <code>{entry.action}</code> },
          { header: 'Changes', cell: (entry) => <Changes changes={entry.changes} /> },
        ]}
      />
      <p>
        <Link to={all}>All {title.charAt(0).toLowerCase() + title.slice(1)} in the audit log</Link>
      </p>
    </section>
  );
}
