import {
  REFERENCE_PAGE_POLICY,
  referencePageHtml,
  referenceScript,
  viewerFiles,
  type ViewerFileSource,
} from '../api-reference/reference-page.ts';
import { CompressedFile } from '../api-reference/compressed-files.ts';
import { z } from 'zod';
import type { OperationSpec } from '../operation-spec.ts';
import type { RouteTable } from '../router.ts';

// the viewer changes only with a Lectern release; the page itself is tiny and always fresh
const CACHE_VIEWER = { 'Cache-Control': 'public, max-age=86400' };
const PAGE_HEADERS = { 'Content-Security-Policy': REFERENCE_PAGE_POLICY, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };

/** The browsable reference (api-reference/reference-page.ts), open without a token like the document it shows; compressed when the client accepts it. */
const referenceFile = (summary: string, mediaType: string): OperationSpec => ({
  summary,
  tag: 'Meta',
  scope: null,
  response: { status: 200, schema: z.string(), mediaType },
});

export function apiReferenceRoutes(routes: RouteTable, viewer: ViewerFileSource): void {
  const html = 'text/html; charset=utf-8';
  const pages = {
    withoutSlash: new CompressedFile(html, () => Buffer.from(referencePageHtml('docs/')), PAGE_HEADERS),
    withSlash: new CompressedFile(html, () => Buffer.from(referencePageHtml('')), PAGE_HEADERS),
  };
  const script = new CompressedFile('text/javascript; charset=utf-8', () => Buffer.from(referenceScript), PAGE_HEADERS);
  const viewerFile = (name: keyof typeof viewerFiles) =>
    new CompressedFile(viewerFiles[name], () => viewer(name), { ...CACHE_VIEWER, 'X-Content-Type-Options': 'nosniff' });
  const bundle = viewerFile('swagger-ui-bundle.js');
  const css = viewerFile('swagger-ui.css');
  routes
    .get('/api/v2/docs', referenceFile('This description as a browsable page', 'text/html'), (rc) =>
      (rc.path?.endsWith('/') ? pages.withSlash : pages.withoutSlash).reply(rc.header('accept-encoding')),
    )
    .get('/api/v2/docs/reference.js', referenceFile("The page's start-up script", 'text/javascript'), (rc) =>
      script.reply(rc.header('accept-encoding')),
    )
    .get('/api/v2/docs/swagger-ui-bundle.js', referenceFile("The page's viewer (Swagger UI)", 'text/javascript'), (rc) =>
      bundle.reply(rc.header('accept-encoding')),
    )
    .get('/api/v2/docs/swagger-ui.css', referenceFile("The viewer's style sheet", 'text/css'), (rc) =>
      css.reply(rc.header('accept-encoding')),
    );
}
