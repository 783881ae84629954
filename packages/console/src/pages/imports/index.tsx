/**
 * Imports: a CSV of users, assignments or enrollments dropped or picked, sent as it is to the
 * server's import route (optionally as a dry run), its progress followed live, and the per-row
 * report shown with the failed rows first and offered as a download.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import { saveBlob } from '../../api/list.ts';
import type { GetResult } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { checked, ErrorsFor, Form, SelectField } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can } from '../../session/me.ts';
import { parseCsv } from './csv.ts';

type Import = GetResult<'/api/v2/imports/{id}'>;
type Kind = 'users' | 'assignments' | 'enrollments';
const KINDS: Kind[] = ['users', 'assignments', 'enrollments'];
const FINISHED = ['completed', 'failed', 'cancelled'];

export function ImportsPage() {
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [version, setVersion] = useState(0);
  const open = query().get('import');
  const kinds = KINDS.filter((kind) => can(`${kind}:write`));
  return (
    <>
      <h1>Imports</h1>
      {kinds.length ? (
        <Form
          submitLabel="Upload"
          onSubmit={async (data) => {
            if (!file) throw new Error('Choose a CSV file first.');
            const made = await unwrap(
              api.POST('/api/v2/imports', {
                params: {
                  query: { kind: String(data.get('kind')) as Kind, dry_run: checked(data, 'dry_run'), update: checked(data, 'update') },
                },
                // the file goes as it is, streamed by the browser: never read whole into this page
                body: file as unknown as string,
                bodySerializer: (body: unknown) => body as BodyInit,
                headers: {
                  'Content-Type': 'text/csv',
                  'Content-Disposition': `attachment; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`,
                },
              }),
            );
            setFile(null);
            setVersion(version + 1);
            setQuery({ import: made.id });
          }}
        >
          <SelectField name="kind" label="What the file holds" options={kinds} />
          <div
            class={over ? 'dropzone over' : 'dropzone'}
            onDragOver={(event) => {
              event.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={(event) => {
              event.preventDefault();
              setOver(false);
              const dropped = event.dataTransfer?.files[0];
              if (dropped) setFile(dropped);
            }}
          >
            <p>Drop a CSV file here, or choose one.</p>
            <label for="import-file">CSV file</label>{' '}
            <input
              id="import-file"
              type="file"
              accept=".csv,text/csv"
              onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
            />
            {file ? (
              <p role="status">
                {file.name} ({Math.ceil(file.size / 1024)} KiB)
              </p>
            ) : null}
          </div>
          <ErrorsFor name="file" />
          <div class="field checkbox">
            <input id="import-dry-run" type="checkbox" name="dry_run" />
            <label for="import-dry-run">Dry run: check every row, change nothing</label>
          </div>
          <div class="field checkbox">
            <input id="import-update" type="checkbox" name="update" />
            <label for="import-update">Update existing records instead of reporting them</label>
          </div>
        </Form>
      ) : null}
      {open ? <ImportDetail id={open} onChanged={() => setVersion(version + 1)} /> : null}
      <h2>Recent imports</h2>
      <ListView
        path="/api/v2/imports"
        caption="Imports"
        version={version}
        filters={[
          { name: 'kind', label: 'Kind', options: KINDS.map((kind) => [kind, kind] as const) },
          {
            name: 'status',
            label: 'Status',
            options: ['pending', 'running', 'completed', 'failed', 'cancelled'].map((s) => [s, s] as const),
          },
        ]}
        rowKey={(item) => item.id}
        columns={[
          { header: 'File', cell: (item) => item.filename ?? '(unnamed)' },
          { header: 'Kind', cell: (item) => item.kind + (item.dry_run ? ' (dry run)' : '') },
          { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
          { header: 'Rows', class: 'num', cell: (item) => `${item.processed} / ${item.total_rows ?? '?'}` },
          { header: 'Failed', class: 'num', cell: (item) => item.failed },
          { header: 'Started', cell: (item) => <DateCell value={item.created_at} /> },
          {
            header: 'Actions',
            cell: (item) => (
              <button type="button" aria-label={`Open import ${item.filename ?? item.id}`} onClick={() => setQuery({ import: item.id })}>
                Open
              </button>
            ),
          },
        ]}
      />
    </>
  );
}

function StatusBadge({ status }: { status: string }) {
  return (
    <span class={status === 'completed' ? 'badge ok' : status === 'failed' || status === 'cancelled' ? 'badge bad' : 'badge'}>
      {status}
    </span>
  );
}

function ImportDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [tick, setTick] = useState(0);
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/imports/{id}', { params: { path: { id } } })), `${id}|${tick}`);
  const item: Import | undefined = loaded.data;
  const finished = item ? FINISHED.includes(item.status) : false;
  // poll while it runs: the progress bar follows the rows the server has committed
  useEffect(() => {
    if (!item || finished) return;
    const timer = setTimeout(() => setTick((n) => n + 1), 700);
    return () => clearTimeout(timer);
  }, [item, finished]);
  useEffect(() => {
    if (finished) onChanged();
  }, [finished]);
  return (
    <section class="detail" aria-labelledby="import-title">
      <h2 id="import-title">Import {item?.filename ?? id}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {item ? (
        <>
          <p>
            <StatusBadge status={item.status} /> {item.kind}
            {item.dry_run ? ', dry run: nothing was changed' : ''}
          </p>
          <label for="import-progress">Progress</label>
          <progress id="import-progress" max={item.total_rows ?? 1} value={item.total_rows ? item.processed : undefined} />
          <p role="status">
            {item.processed} of {item.total_rows ?? 'unknown'} rows · {item.created} created · {item.existing} existing · {item.updated}{' '}
            updated · {item.valid} valid · {item.failed} failed
          </p>
          {item.error ? (
            <p class="banner error" role="alert">
              The import failed: {item.error.message}
            </p>
          ) : null}
          {!finished ? (
            <ActionButton
              label="Cancel import"
              danger
              run={() => unwrap(api.POST('/api/v2/imports/{id}/cancel', { params: { path: { id } } }))}
              done={() => setTick(tick + 1)}
            />
          ) : null}
          {item.processed > 0 ? <Report id={id} version={finished ? 'done' : String(item.processed)} filename={item.filename} /> : null}
        </>
      ) : null}
      <button type="button" onClick={() => setQuery({ import: undefined })}>
        Close
      </button>
    </section>
  );
}

function Report({ id, version, filename }: { id: string; version: string; filename: string | null }) {
  const loaded = useLoad(
    () => unwrap(api.GET('/api/v2/imports/{id}/report', { params: { path: { id } }, parseAs: 'text' })) as Promise<string>,
    `${id}|${version}`,
  );
  const rows = loaded.data ? parseCsv(loaded.data) : undefined;
  const header = rows?.[0] ?? [];
  const status = header.indexOf('status');
  // failed rows first, then the rest in file order
  const body = rows ? rows.slice(1).sort((a, b) => Number(b[status] === 'failed') - Number(a[status] === 'failed')) : undefined;
  return (
    <>
      <h3>Report</h3>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {loaded.data ? (
        <button
          type="button"
          onClick={() =>
            saveBlob(new Blob([loaded.data ?? ''], { type: 'text/csv' }), `${(filename ?? 'import').replace(/\.csv$/i, '')}.report.csv`)
          }
        >
          Download report
        </button>
      ) : null}
      <DataTable
        caption="Import report"
        loading={loaded.loading}
        rows={body?.map((cells, index) => ({ cells, index }))}
        rowKey={(row) => row.index}
        columns={header.map((name, column) => ({
          header: name,
          cell: (row: { cells: string[] }) =>
            column === status ? (
              <StatusBadge status={row.cells[column] === 'failed' ? 'failed' : (row.cells[column] ?? '')} />
            ) : (
              (row.cells[column] ?? '')
            ),
        }))}
      />
    </>
  );
}
