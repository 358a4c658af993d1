/**
 * The API explorer written beside the document: `swagger.html`, which loads swagger-ui from the
 * files beside it and starts it with `swagger-initializer.js` (no inline script or style, so the
 * page passes a Content-Security-Policy without 'unsafe-inline'), and the `swagger-ui-dist`
 * assets it loads.
 */
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

/** The swagger-ui files the page loads, copied beside it. */
export const EXPLORER_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The explorer page: swagger-ui from the files beside it, pointed at `specFile` (read by swagger-initializer.js). */
export function swaggerHtml(title: string, specFile: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} — API explorer</title>
  <link rel="stylesheet" href="./swagger-ui.css">
</head>
<body>
  <div id="swagger-ui" data-url="${escapeHtml(`./${specFile}`)}"></div>
  <script src="./swagger-ui-bundle.js"></script>
  <script src="./swagger-initializer.js"></script>
</body>
</html>
`
}

/** Starts swagger-ui on the page's `#swagger-ui` element, with the document its `data-url` names. */
export const SWAGGER_INITIALIZER = `// Written by vela openapi: starts the explorer of swagger.html (a file, not an inline script, so
// the page passes a Content-Security-Policy without 'unsafe-inline').
window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.url,
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The badge would load an image from validator.swagger.io: nothing leaves the app's origin.
  validatorUrl: null,
})
`

/** Where the installed swagger-ui-dist package keeps its files. */
export function swaggerUiDir(): string {
  const require = createRequire(import.meta.url)
  return dirname(require.resolve('swagger-ui-dist/package.json'))
}
