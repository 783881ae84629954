/** One import's page (imports/<id>): progress followed live, counts, cancel, and the per-row report. */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import { saveBlob } from '../../api/list.ts';
import type { GetResult } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { useLoad } from '../../components/use-load.ts';
import { parseCsv } from './csv.ts';

type Import = GetResult<'/api/v2/imports/{id}'>;
// the states an import ends in; the compiler checks each is one the API names
const FINISHED: readonly Import['status'][] = ['completed', 'failed', 'cancelled'];

export function StatusBadge({ status }: { status: string }) {
  return (
    <span class={status === 'completed' ? 'badge ok' : status === 'failed' || status === 'cancelled' ? 'badge bad' : 'badge'}>
      {status}
    </span>
  );
}

export function ImportDetail({ segments: [id = ''] }: { segments: string[] }) {
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
  return (
    <DetailPage loaded={loaded} title={(item) => `Import ${item.filename ?? id}`} back={['imports', 'Imports']} id={id}>
      {(item) => (
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
      )}
    </DetailPage>
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
