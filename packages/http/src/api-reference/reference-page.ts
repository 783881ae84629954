/**
 * The browsable API reference at `/api/v2/docs`: Swagger UI (the `swagger-ui-dist` package) reading
 * `/api/v2/openapi.json`. Lectern serves the viewer's files itself, so the page works offline and
 * behind a firewall, and the page may load nothing from any other host (see the policy below).
 */

/** The viewer's files Lectern serves, by the name they have in swagger-ui-dist. */
export const viewerFiles = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;

export type ViewerFile = keyof typeof viewerFiles;

/** Where the viewer's bytes come from: the installed package, or the single executable's assets. */
export type ViewerFileSource = (name: ViewerFile) => Buffer;

/**
 * Only this origin: no CDN, font service or analytics can be reached from the page. Swagger UI sets
 * element styles from script, hence `'unsafe-inline'` for styles (never for scripts); the
 * `validatorUrl: null` below keeps it from calling its public validator.
 */
export const REFERENCE_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page, with its files named relative to it, so it works behind a proxy that serves Lectern
 * under a path prefix. The page answers both `/api/v2/docs` and `/api/v2/docs/`, from which the
 * same relative link means different things: `base` is `docs/` for the first, empty for the second.
 */
export const referencePageHtml = (base: '' | 'docs/'): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lectern API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${base}swagger-ui-bundle.js"></script>
<script src="${base}reference.js"></script>
</body>
</html>
`;

/** Starts the viewer; a file of its own because the policy allows no inline script. */
export const referenceScript = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    // beside the page, wherever a proxy put it: /prefix/api/v2/docs → /prefix/api/v2/openapi.json
    url: window.location.pathname.replace(/\\/docs\\/?$/, '/openapi.json'),
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
});
`;
