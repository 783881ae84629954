import {
  REFERENCE_PAGE_POLICY,
  referencePageHtml,
  referenceScript,
  viewerFiles,
  type ViewerFileSource,
} from '../api-reference/reference-page.ts';
import { document } from '../reply.ts';
import type { RouteTable } from '../router.ts';

// the viewer changes only with a Lectern release; the page itself is tiny and always fresh
const CACHE_VIEWER = { 'Cache-Control': 'public, max-age=86400' };
const PAGE_HEADERS = { 'Content-Security-Policy': REFERENCE_PAGE_POLICY, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };

/** The browsable reference (api-reference/reference-page.ts), open without a token like the document it shows. */
export function apiReferenceRoutes(routes: RouteTable, viewer: ViewerFileSource): void {
  routes
    .publicGet('/api/v2/docs', () => document('text/html; charset=utf-8', referencePageHtml, PAGE_HEADERS))
    .publicGet('/api/v2/docs/reference.js', () => document('text/javascript; charset=utf-8', referenceScript, PAGE_HEADERS))
    .publicGet('/api/v2/docs/swagger-ui-bundle.js', () =>
      document(viewerFiles['swagger-ui-bundle.js'], viewer('swagger-ui-bundle.js'), {
        ...CACHE_VIEWER,
        'X-Content-Type-Options': 'nosniff',
      }),
    )
    .publicGet('/api/v2/docs/swagger-ui.css', () =>
      document(viewerFiles['swagger-ui.css'], viewer('swagger-ui.css'), { ...CACHE_VIEWER, 'X-Content-Type-Options': 'nosniff' }),
    );
}
