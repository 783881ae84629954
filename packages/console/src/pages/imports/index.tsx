/**
 * Imports: a CSV of users, assignments or enrollments dropped or picked, sent as it is to the
 * server's import route (optionally as a dry run), its progress followed live, and the per-row
 * report shown with the failed rows first and offered as a download.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import { importKinds } from '../../api/values.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { checked, ErrorsFor, Form, SelectField } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { navigate } from '../../router.ts';
import { listOrDetail } from '../../components/detail-route.tsx';
import { detailAddress, ResourceLink } from '../../components/resource-link.tsx';
import { useVersion } from '../../components/use-load.ts';
import { ImportDetail, StatusBadge } from './detail.tsx';
import { can } from '../../session/me.ts';

export const ImportsPage = listOrDetail(ImportList, ImportDetail);

function ImportList() {
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [version, refresh] = useVersion();
  const kinds = importKinds.filter((kind) => can(`${kind}:write`));
  return (
    <>
      <h1>Imports</h1>
      {kinds.length ? (
        <Form
          submitLabel="Upload"
          onSubmit={async (data) => {
            if (!file) throw new Error('Choose a CSV file first.');
            const chosenKind = kinds.find((kind) => kind === data.get('kind'));
            if (!chosenKind) throw new Error('Choose what the file holds.');
            const made = await unwrap(
              api.POST('/api/v2/imports', {
                params: {
                  query: { kind: chosenKind, dry_run: checked(data, 'dry_run'), update: checked(data, 'update') },
                },
                // the file goes as it is, streamed by the browser: never read whole into this page
                body: file,
                bodySerializer: (body) => body,
                headers: {
                  'Content-Type': 'text/csv',
                  'Content-Disposition': `attachment; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`,
                },
              }),
            );
            setFile(null);
            refresh();
            navigate(detailAddress('import', made.id));
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
      <h2>Recent imports</h2>
      <ListView
        path="/api/v2/imports"
        empty="No imports yet. Upload a CSV file above to add or update users, assignments or enrollments in bulk."
        load={(q, path) => api.GET(path, { params: { query: q.paging } })}
        caption="Imports"
        version={version}
        rowKey={(item) => item.id}
        columns={[
          {
            header: 'File',
            cell: (item) => (
              <ResourceLink kind="import" id={item.id}>
                {item.filename ?? '(unnamed)'}
              </ResourceLink>
            ),
          },
          { header: 'Kind', cell: (item) => item.kind + (item.dry_run ? ' (dry run)' : '') },
          { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
          { header: 'Rows', class: 'num', cell: (item) => `${item.processed} / ${item.total_rows ?? '?'}` },
          { header: 'Failed', class: 'num', cell: (item) => item.failed },
          { header: 'Started', cell: (item) => <DateCell value={item.created_at} /> },
        ]}
      />
    </>
  );
}
