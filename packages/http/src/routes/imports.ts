import { importKinds, importSchema, LecternError, type Lectern } from '@lectern/core';
import { z } from 'zod';
import type { OperationSpec } from '../operation-spec.ts';
import { accepted, ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** `filename` or `filename*` (RFC 6266) of a Content-Disposition header, or null. */
export function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // a malformed encoding: fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? name.slice(0, 255) : null;
}

const isCsv = (type: string | undefined) => type?.split(';')[0]?.trim().toLowerCase() === 'text/csv';

/** Imports need the scope of their kind's bulk route (users:write, assignments:write, enrollments:write): the service checks it. */
const spec = (summary: string, response: OperationSpec['response']): OperationSpec => ({
  summary,
  tag: 'Imports',
  scope: 'token',
  response,
});

const upload: OperationSpec = {
  ...spec('Upload a CSV file to import (body: the file, Content-Type text/csv; ?kind=…)', { status: 202, schema: importSchema }),
  // binary: a client sends the file as it is (a browser streams its File), not a string it holds
  request: z.string().meta({ description: 'The CSV file: a header row naming the columns, then one row per item', format: 'binary' }),
  requestMediaType: 'text/csv',
  query: {
    extra: {
      kind: { schema: { type: 'string', enum: [...importKinds] }, description: 'What each row creates', required: true },
      dry_run: { schema: { type: 'boolean' }, description: 'Check every row and report, writing nothing' },
      update: { schema: { type: 'boolean' }, description: 'Update the existing records rows name, instead of refusing them' },
    },
  },
};

export function importRoutes(routes: RouteTable, lectern: Lectern): void {
  const imports = lectern.imports;
  const maxBytes = lectern.config.imports.maxUploadMb * 1024 * 1024;
  routes
    .streamingPost('/api/v2/imports', maxBytes, upload, async (rc) => {
      const ctx = rc.ctx;
      if (!isCsv(rc.header('content-type'))) {
        throw new LecternError('unsupported_media_type', 'An import is sent as the CSV file itself, with Content-Type: text/csv.');
      }
      const request = {
        kind: rc.query.get('kind') ?? undefined,
        dry_run: rc.query.get('dry_run') ?? undefined,
        update: rc.query.get('update') ?? undefined,
        filename: dispositionFilename(rc.header('content-disposition')),
      };
      return accepted(await imports.submit(ctx, request, rc.bodyStream(maxBytes)));
    })
    .get('/api/v2/imports', spec('List imports, newest first', { status: 200, schema: importSchema, list: true }), async (rc) =>
      ok(await imports.list(rc.ctx, rc.query)),
    )
    .get('/api/v2/imports/:id', spec('Get an import and its counts', { status: 200, schema: importSchema }), async (rc) =>
      ok(await imports.get(rc.ctx, rc.params.id)),
    )
    .post('/api/v2/imports/:id/cancel', spec('Cancel an import', { status: 200, schema: importSchema }), async (rc) =>
      ok(await imports.cancel(rc.ctx, rc.params.id)),
    )
    .get(
      '/api/v2/imports/:id/report',
      spec('The per-row report of the rows processed so far (CSV)', { status: 200, mediaType: 'text/csv' }),
      async (rc) => {
        // streamed a page of rows at a time, as the client reads: a million-row report is never held whole
        const report = await imports.report(rc.ctx, rc.params.id);
        return {
          status: 200,
          headers: { 'Content-Disposition': `attachment; filename="${report.filename}"` },
          stream: { type: 'text/csv; charset=utf-8', chunks: report.lines },
        };
      },
    );
}
