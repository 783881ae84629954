/** Assignments: filter by state, user, content, type, overdue and dates; assign to users or groups; the state actions; progress. */
import { useState } from 'preact/hooks';
// core's one table of which action each state allows (plain data and pure functions, nothing else of core)
import { canTransition, type AssignmentAction } from '@lectern/core/assignment-machine';
import { api, unwrap } from '../../api/client.ts';
import { membersOf } from '../../api/group-members.ts';
import { assignmentContentTypes, assignmentStates } from '../../api/values.ts';
import type { Assignment } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { Field, FoldedForm, Form, list, nullableText, picked, SelectField, text } from '../../components/form.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { useRecord, useVersion } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { Link } from '../../components/link.tsx';
import { ListView } from '../../components/list-view.tsx';
import { Picker } from '../../components/picker.tsx';
import { can, me, role } from '../../session/me.ts';
import { rememberJob } from '../../session/recent-jobs.ts';
import {
  assignmentCompleted,
  assignmentContent,
  assignmentDue,
  assignmentProgress,
  assignmentState,
  assignmentType,
  assignmentUser,
} from './columns.tsx';
import { assignmentsQuery, loadAssignments } from './list-load.ts';

const label = (value: string) => value.replace('_', ' ');

export function AssignmentsPage() {
  const [version, refresh] = useVersion();
  const [job, setJob] = useState<string | null>(null);
  const writable = can('assignments:write');
  const manager = role.value !== 'user';
  const opened = query().get('assignment');
  return (
    <>
      <h1>Assignments</h1>
      {writable && manager ? (
        <details>
          <summary>Assign content</summary>
          <Form
            submitLabel="Assign"
            onSubmit={async (data) => {
              setJob(null);
              const users = [...new Set([...list(data, 'user_ids'), ...(await membersOf(list(data, 'group_ids')))])];
              const due_date = nullableText(data, 'due_date');
              const content = picked(data, 'content_item_ids');
              const assignments = users.flatMap((user_id) => content.map((content_item_id) => ({ user_id, content_item_id, due_date })));
              if (assignments.length === 1 && assignments[0]) await unwrap(api.POST('/api/v2/assignments', { body: assignments[0] }));
              else {
                const started = await unwrap(api.POST('/api/v2/assignments/bulk', { body: { assignments } }));
                setJob(started.id);
                rememberJob('assignments', started.id, `${assignments.length} assignments`);
              }
              refresh();
            }}
          >
            <Picker name="content_item_ids" label="Content" kind="content" multiple errorKey="content_item_id" required />
            <Picker
              name="user_ids"
              label="People"
              kind="user"
              multiple
              errorKey="user_id"
              hint="Type names or emails, or paste a column of emails."
            />
            <Picker name="group_ids" label="Groups" kind="group" multiple hint="Every member of these groups is assigned too." />
            <Field name="due_date" label="Due date" type="date" />
          </Form>
          {job ? (
            <p class="banner success" role="status">
              Assigning in the background: <Link to={`bulk-jobs?kind=assignments&id=${job}`}>follow bulk job {job}</Link>.
            </p>
          ) : null}
        </details>
      ) : null}
      {writable && !manager ? (
        <FoldedForm
          summary="Assign myself"
          submitLabel="Assign"
          onSubmit={async (data) => {
            await unwrap(
              api.POST('/api/v2/assignments', {
                body: { user_id: me.value?.user.public_id ?? '', content_item_id: picked(data, 'content_item_id')[0] ?? '' },
              }),
            );
            refresh();
          }}
        >
          <Picker name="content_item_id" label="Content" kind="content" hint="Self-assignable content from the catalogue." />
        </FoldedForm>
      ) : null}
      {opened ? <AssignmentDetail id={opened} manager={manager} onChanged={refresh} /> : null}
      <ListView
        path="/api/v2/assignments"
        empty={
          role.value === 'user'
            ? 'Nothing assigned to you yet. Pick something from the catalogue above.'
            : 'No assignments yet. Give content to a person or a whole group with the form above.'
        }
        load={loadAssignments}
        csv={(q, path) => api.GET(path, { params: { query: { ...assignmentsQuery(q), format: 'csv' } }, parseAs: 'blob' })}
        caption="Assignments"
        version={version}
        exportName="assignments"
        filters={[
          { name: 'state', label: 'State', options: assignmentStates.map((state) => [state, label(state)] as const) },
          { name: 'content_type', label: 'Type', options: assignmentContentTypes.map((type) => [type, label(type)] as const) },
          {
            name: 'is_overdue',
            label: 'Overdue',
            options: [
              ['true', 'Overdue'],
              ['false', 'Not overdue'],
            ],
          },
          ...(manager ? [{ name: 'user', label: 'User', pick: 'user' as const }] : []),
          { name: 'content_item', label: 'Content', pick: 'content' as const },
          { name: 'due_date__gte', label: 'Due from', type: 'date' as const },
          { name: 'due_date__lte', label: 'Due until', type: 'date' as const },
          { name: 'created__gte', label: 'Created from', type: 'date' as const },
          { name: 'created__lte', label: 'Created until', type: 'date' as const },
        ]}
        orderings={[
          ['-created', 'Newest first'],
          ['created', 'Oldest first'],
          ['due_date', 'Due soonest'],
          ['-modified', 'Recently changed'],
        ]}
        rowKey={(assignment) => assignment.public_id}
        columns={[
          assignmentUser,
          assignmentContent,
          assignmentType,
          assignmentState,
          assignmentProgress,
          assignmentDue,
          assignmentCompleted,
          { header: 'Actions', cell: (a) => (writable ? <StateActions assignment={a} done={refresh} manager={manager} /> : null) },
        ]}
      />
    </>
  );
}

function StateActions({ assignment, done, manager }: { assignment: Assignment; done: () => void; manager: boolean }) {
  const path = { params: { path: { id: assignment.public_id } } };
  const name = (verb: string) => `${verb} ${assignment.content_item.name} for ${assignment.user.email}`;
  const allows = (action: AssignmentAction) => canTransition(assignment.state, action);
  if (assignment.is_enrollment_managed) return <span class="muted">by enrollment</span>;
  return (
    <div class="actions">
      {allows('progress') ? (
        <button type="button" aria-label={name('Record progress')} onClick={() => setQuery({ assignment: assignment.public_id })}>
          Progress
        </button>
      ) : null}
      {allows('complete') ? (
        <ActionButton
          label="Complete"
          name={name('Complete')}
          run={() => unwrap(api.POST('/api/v2/assignments/{id}/complete', path))}
          done={done}
        />
      ) : null}
      {manager && allows('exempt') ? (
        <ActionButton
          label="Exempt"
          name={name('Exempt')}
          run={() => unwrap(api.POST('/api/v2/assignments/{id}/exempt', path))}
          done={done}
        />
      ) : null}
      {allows('drop') ? (
        <ActionButton
          label="Drop"
          name={name('Drop')}
          danger
          run={() => unwrap(api.POST('/api/v2/assignments/{id}/drop', { ...path, body: {} }))}
          done={done}
        />
      ) : null}
      {allows('undo-complete') ? (
        <ActionButton
          label="Undo complete"
          name={name('Undo complete')}
          run={() => unwrap(api.POST('/api/v2/assignments/{id}/undo-complete', path))}
          done={done}
        />
      ) : null}
      {manager && allows('undo-exempt') ? (
        <ActionButton
          label="Undo exempt"
          name={name('Undo exempt')}
          run={() => unwrap(api.POST('/api/v2/assignments/{id}/undo-exempt', path))}
          done={done}
        />
      ) : null}
    </div>
  );
}

/** One assignment: where it stands, progress with score and pass/fail, and (for managers) its dates. */
function AssignmentDetail({ id, manager, onChanged }: { id: string; manager: boolean; onChanged: () => void }) {
  const path = { params: { path: { id } } };
  const { loaded, changed: reload } = useRecord(id, () => unwrap(api.GET('/api/v2/assignments/{id}', path)));
  const a = loaded.data;
  const changed = () => {
    reload();
    onChanged();
  };
  const open = a ? canTransition(a.state, 'progress') : false;
  return (
    <section class="detail" aria-labelledby="assignment-title">
      <h2 id="assignment-title">{a ? `${a.content_item.name} for ${a.user.name}` : 'Assignment'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {a ? (
        <>
          <p>
            {label(a.state)} · {Math.round(a.progress * 100)} % · attempt {a.attempt}
            {a.score !== null ? ` · score ${a.score}` : ''}
            {a.is_success !== null ? (a.is_success ? ' · passed' : ' · failed') : ''}
            {a.due_date ? ` · due ${a.due_date}${a.is_overdue ? ' (overdue)' : ''}` : ''}
          </p>
          <label for="assignment-progress">Progress</label>
          <progress id="assignment-progress" max={1} value={a.progress} />
          <p class="muted">
            Started <DateCell value={a.started_at} />, completed <DateCell value={a.completed_datetime} />
          </p>
          <div class="grid">
            {open && can('assignments:write') && !a.is_enrollment_managed ? (
              <Form
                resetKey={a.modified}
                submitLabel="Record progress"
                onSubmit={async (data) => {
                  const score = text(data, 'score');
                  const success = text(data, 'is_success');
                  await unwrap(
                    api.POST('/api/v2/assignments/{id}/progress', {
                      ...path,
                      body: {
                        progress: Number(text(data, 'progress')) / 100,
                        ...(score ? { score: Number(score) } : {}),
                        ...(success ? { is_success: success === 'true' } : {}),
                      },
                    }),
                  );
                  changed();
                }}
              >
                <Field
                  name="progress"
                  label="Progress (%)"
                  type="number"
                  min={0}
                  max={100}
                  defaultValue={String(Math.round(a.progress * 100))}
                />
                <Field name="score" label="Score" type="number" />
                <SelectField
                  name="is_success"
                  label="Result"
                  options={[
                    ['', 'Not graded'],
                    ['true', 'Passed'],
                    ['false', 'Failed'],
                  ]}
                />
              </Form>
            ) : null}
            {manager && can('assignments:write') ? (
              <Form
                resetKey={a.modified}
                submitLabel="Save dates"
                onSubmit={async (data) => {
                  const expires = text(data, 'expires_at');
                  await unwrap(
                    api.PATCH('/api/v2/assignments/{id}', {
                      ...path,
                      body: { due_date: nullableText(data, 'due_date'), expires_at: expires ? new Date(expires).toISOString() : null },
                    }),
                  );
                  changed();
                }}
              >
                <Field name="due_date" label="Due date" type="date" defaultValue={a.due_date ?? ''} />
                <Field name="expires_at" label="Expires at" type="datetime-local" hint="Your local time." />
              </Form>
            ) : null}
          </div>
        </>
      ) : null}
      <button type="button" onClick={() => setQuery({ assignment: undefined })}>
        Close
      </button>
    </section>
  );
}
