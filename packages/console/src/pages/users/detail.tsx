/**
 * One user's page (users/<id>): the profile and its form, their assignments, enrollments and API
 * tokens, the groups they are in, and their audit trail (audit-trail.tsx).
 */
import { api, unwrap } from '../../api/client.ts';
import { groupOrderings, tokenOrderings } from '../../api/values.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useRecord } from '../../components/use-load.ts';
import { can } from '../../session/me.ts';
import { assignmentCompleted, assignmentContent, assignmentDue, assignmentState } from '../assignments/columns.tsx';
import { assignmentsQuery } from '../assignments/list-load.ts';
import { groupMembers, groupName, groupSource } from '../groups/columns.tsx';
import { enrollmentAttendance, enrollmentCheckedIn, enrollmentEvent, enrollmentStatus } from '../enrollments/columns.tsx';
import { enrollmentBulkActions } from '../enrollments/bulk-actions.tsx';
import { enrollmentsQuery } from '../enrollments/list-query.ts';
import { ActiveToggle } from './active-toggle.tsx';
import { AuditTrail } from './audit-trail.tsx';
import { EditUser } from './edit-user.tsx';

export function UserDetail({ segments: [id = ''] }: { segments: string[] }) {
  const { loaded, changed } = useRecord(id, () => unwrap(api.GET('/api/v2/users/{id}', { params: { path: { id } } })));
  return (
    <DetailPage
      loaded={loaded}
      back={['users', 'Users']}
      id={id}
      summary={(user) => `${user.email} · ${user.role} · ${user.is_active ? 'active' : 'deactivated'}`}
    >
      {(user) => (
        <>
          {can('users:write') ? (
            <div class="actions">
              <ActiveToggle user={user} done={changed} />
            </div>
          ) : null}
          <EditUser key={user.public_id} user={user} onSaved={changed} />
          {can('assignments:read') ? <Assignments userId={id} /> : null}
          {can('enrollments:read') ? <Enrollments userId={id} /> : null}
          {can('tokens:read') ? <Tokens userId={id} /> : null}
          {can('groups:read') ? <Groups userId={id} /> : null}
          {can('audit:read') ? <AuditTrail userId={id} name={user.name} /> : null}
        </>
      )}
    </DetailPage>
  );
}

function Assignments({ userId }: { userId: string }) {
  return (
    <>
      <h2>Assignments</h2>
      <ListView
        path="/api/v2/assignments"
        empty="Nothing assigned to them yet. Give them content on the Assignments page."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...assignmentsQuery(q), user: userId } } })}
        scope={userId}
        prefix="a_"
        caption="Their assignments"
        rowKey={(a) => a.public_id}
        columns={[assignmentContent, assignmentState, assignmentDue, assignmentCompleted]}
      />
    </>
  );
}

function Groups({ userId }: { userId: string }) {
  return (
    <>
      <h2>Groups</h2>
      <ListView
        path="/api/v2/groups"
        empty="They are in no group yet. Add them from a group’s page."
        load={(q, path) =>
          api.GET(path, { params: { query: { ...q.paging, member: userId, ordering: q.oneOf('ordering', groupOrderings) } } })
        }
        scope={userId}
        prefix="g_"
        caption="Groups they are a member of"
        rowKey={(g) => g.public_id}
        columns={[{ ...groupName, header: 'Group' }, groupMembers, groupSource]}
      />
    </>
  );
}

function Enrollments({ userId }: { userId: string }) {
  return (
    <>
      <h2>Enrollments</h2>
      <ListView
        path="/api/v2/enrollments"
        empty="Not enrolled in any event yet. Enroll them on the Enrollments page or from an event’s page."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...enrollmentsQuery(q), user: userId } } })}
        scope={userId}
        prefix="e_"
        caption="Their enrollments"
        rowKey={(e) => e.public_id}
        selectable={can('enrollments:write') ? enrollmentBulkActions : undefined}
        columns={[enrollmentEvent, enrollmentStatus, enrollmentAttendance, enrollmentCheckedIn]}
      />
    </>
  );
}

function Tokens({ userId }: { userId: string }) {
  return (
    <>
      <h2>API tokens</h2>
      <ListView
        path="/api/v2/api-tokens"
        empty="No API tokens of theirs."
        load={(q, path) =>
          api.GET(path, { params: { query: { ...q.paging, user: userId, ordering: q.oneOf('ordering', tokenOrderings) } } })
        }
        scope={userId}
        prefix="t_"
        caption="Their API tokens"
        rowKey={(token) => token.public_id}
        columns={[
          { header: 'Name', cell: (token) => token.name },
          { header: 'Prefix', cell: (token) => <code>{token.token_prefix}</code> },
          { header: 'Last used', cell: (token) => <DateCell value={token.last_used_at} /> },
          { header: 'Expires', cell: (token) => <DateCell value={token.expires_at} /> },
        ]}
      />
    </>
  );
}
