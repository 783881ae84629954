/**
 * Saved reports: an RQL editor that marks the character the server's 422 points at, the results
 * as a paged table, and every result row as CSV.
 */
import { useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { savedReportResources } from '../../api/values.ts';
import type { BodyOf, SavedReport } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import type { Column } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { Field, Form, nullableText, SelectField, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useRecord, useVersion } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can } from '../../session/me.ts';
import { rqlErrorPosition } from './rql-position.ts';

type Resource = BodyOf<'/api/v2/saved-reports', 'post'>['resource'];
const RESOURCES: readonly Resource[] = savedReportResources;

function RqlMarker({ expression, error }: { expression: string; error: string }) {
  const at = rqlErrorPosition(error);
  if (at === null) return null;
  const position = Math.min(at, expression.length);
  return (
    <div class="rql-error" role="note" aria-label="Where the expression is wrong">
      <pre>
        {expression.slice(0, position)}
        <mark>{expression.slice(position, position + 1) || ' '}</mark>
        {expression.slice(position + 1)}
      </pre>
    </div>
  );
}

function ReportForm({ report, onSaved }: { report?: SavedReport; onSaved: (report: SavedReport) => void }) {
  const [draft, setDraft] = useState<{ expression: string; error: string } | null>(null);
  return (
    <Form
      resetKey={report?.modified ?? 'new'}
      submitLabel={report ? 'Save report' : 'Create report'}
      onSubmit={async (data, form) => {
        const body = {
          name: text(data, 'name'),
          resource: text(data, 'resource') as Resource,
          expression: text(data, 'expression'),
          ordering: nullableText(data, 'ordering'),
        };
        setDraft(null);
        try {
          const saved = report
            ? await unwrap(api.PATCH('/api/v2/saved-reports/{id}', { params: { path: { id: report.public_id } }, body }))
            : await unwrap(api.POST('/api/v2/saved-reports', { body }));
          onSaved(saved);
        } catch (error) {
          const message = error instanceof ApiError ? error.fieldErrors.expression?.[0] : undefined;
          if (message) {
            setDraft({ expression: body.expression, error: message });
            // put the caret where the server says the expression goes wrong
            const at = rqlErrorPosition(message);
            const box = form.elements.namedItem('expression');
            if (at !== null && box instanceof HTMLTextAreaElement) box.setSelectionRange(at, at);
          }
          throw error;
        }
      }}
    >
      <Field name="name" label="Report name" required defaultValue={report?.name} />
      <SelectField name="resource" label="Resource" options={RESOURCES} value={report?.resource ?? 'assignments'} />
      <Field name="expression" label="RQL expression" hint="For example and(eq(state,completed),ilike(user.email,*@example.com))">
        {(control) => <textarea {...control} rows={4} spellcheck={false} defaultValue={report?.expression ?? ''} />}
      </Field>
      {draft ? <RqlMarker expression={draft.expression} error={draft.error} /> : null}
      <Field
        name="ordering"
        label="Ordering"
        defaultValue={report?.ordering ?? ''}
        hint="Fields, - for descending, for example -created."
      />
    </Form>
  );
}

export function ReportsPage() {
  const [version, refresh] = useVersion();
  const open = query().get('report');
  return (
    <>
      <h1>Reports</h1>
      {can('reports:write') ? (
        <details open={!open}>
          <summary>New report</summary>
          <ReportForm
            onSaved={(report) => {
              refresh();
              setQuery({ report: report.public_id, r_page: undefined });
            }}
          />
        </details>
      ) : null}
      {open ? <ReportDetail id={open} onChanged={refresh} /> : null}
      <ListView
        path="/api/v2/saved-reports"
        empty="No saved reports yet. Write an RQL filter above and keep it to run again."
        load={(q, path) => api.GET(path, { params: { query: q.paging } })}
        caption="Saved reports"
        version={version}
        rowKey={(report) => report.public_id}
        columns={[
          { header: 'Name', cell: (report) => report.name },
          { header: 'Resource', cell: (report) => report.resource },
          { header: 'Expression', cell: (report) => <code>{report.expression}</code> },
          { header: 'Modified', cell: (report) => <DateCell value={report.modified} /> },
          {
            header: 'Actions',
            cell: (report) => (
              <button
                type="button"
                aria-label={`Open ${report.name}`}
                onClick={() => setQuery({ report: report.public_id, r_page: undefined })}
              >
                Open
              </button>
            ),
          },
        ]}
      />
    </>
  );
}

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    // a related record (a user, a group) reads as its email or name
    if ('email' in value && value.email) return String(value.email);
    if ('name' in value && value.name) return String(value.name);
    return JSON.stringify(value);
  }
  return String(value);
};

function ReportDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const { loaded, version, changed } = useRecord(id, () => unwrap(api.GET('/api/v2/saved-reports/{id}', { params: { path: { id } } })));
  const report = loaded.data;
  return (
    <section class="detail" aria-labelledby="report-title">
      <h2 id="report-title">{report ? report.name : 'Report'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {report && can('reports:write') ? (
        <details>
          <summary>Edit report</summary>
          <ReportForm
            report={report}
            onSaved={() => {
              changed();
              onChanged();
            }}
          />
          <ActionButton
            label="Delete report"
            danger
            confirm="Delete this report?"
            run={() => unwrap(api.DELETE('/api/v2/saved-reports/{id}', { params: { path: { id } } }))}
            done={() => {
              setQuery({ report: undefined });
              onChanged();
            }}
          />
        </details>
      ) : null}
      {report ? (
        <>
          <h3>Results</h3>
          <ListView
            path="/api/v2/saved-reports/{id}/results"
            load={(q, path) => api.GET(path, { params: { path: { id }, query: q.paging } })}
            csv={(_q, path) => api.GET(path, { params: { path: { id }, query: { format: 'csv' } }, parseAs: 'blob' })}
            scope={id}
            prefix="r_"
            caption="Results"
            version={version}
            exportName={`report-${report.name.replace(/[^\w-]+/g, '-').toLowerCase()}`}
            rowKey={(row) => cellText(row['public_id'] ?? JSON.stringify(row))}
            columnsOf={(rows) =>
              Object.keys(rows[0] ?? {}).map((key): Column<Record<string, unknown>> => ({ header: key, cell: (row) => cellText(row[key]) }))
            }
          />
        </>
      ) : null}
      <button type="button" onClick={() => setQuery({ report: undefined, r_page: undefined })}>
        Close
      </button>
    </section>
  );
}
