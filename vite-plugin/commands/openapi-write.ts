/**
 * Writes what `vela openapi` generates: the document (openapi.ts) at `output` and, next to it, the
 * explorer page `swagger.html` with the `swagger-ui-dist` assets it loads (`swagger-ui.css`,
 * `swagger-ui-bundle.js`), so the page works offline and can be served by a static route such as
 * `['/docs/[...]', staticDir('priv/assets')]`. The page loads the spec by its file name, relative
 * to itself. `output` (default `openapi.json`) is resolved against the app root. Returns every file
 * written, in order; the CLI prints one `Generated <path>` line per file.
 *
 * Each file is replaced atomically (written beside it, then renamed), and left alone when it
 * already holds those bytes: the dev server rewrites the document after every swap, possibly while
 * the explorer is being served, and several dev servers of one app (tests) may write at once.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import type { RouteTable } from '../../server/router/compile.ts'
import type { JsonSchema } from './openapi.ts'
import { buildOpenApi } from './openapi.ts'

export interface OpenApiWriteOptions {
  /** Where the document goes (default `openapi.json`), relative to the app root. */
  readonly output?: string
  /** Default: the application name. */
  readonly title?: string
  /** Default `0.1.0`. */
  readonly apiVersion?: string
}

export const EXPLORER_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const

/** Every `priv/schemas/<name>.json` of the app, by name (none when the folder is absent). */
export async function loadSchemas(root: string): Promise<Record<string, JsonSchema>> {
  const dir = resolve(root, 'priv/schemas')
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort()
  const out: Record<string, JsonSchema> = {}
  for (const file of files) {
    try {
      out[file.slice(0, -'.json'.length)] = JSON.parse(await readFile(join(dir, file), 'utf8')) as JsonSchema
    } catch (err) {
      throw new Error(`priv/schemas/${file}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return out
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The explorer page: swagger-ui from the files beside it, pointed at `specFile`. */
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
  <div id="swagger-ui"></div>
  <script src="./swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`./${specFile}`).replace(/</g, '\\u003c')}, dom_id: '#swagger-ui', deepLinking: true })
  </script>
</body>
</html>
`
}

function swaggerUiDir(): string {
  const require = createRequire(import.meta.url)
  return dirname(require.resolve('swagger-ui-dist/package.json'))
}

export async function writeOpenApi(root: string, appName: string, table: RouteTable, opts: OpenApiWriteOptions = {}): Promise<string[]> {
  const output = resolve(root, opts.output ?? 'openapi.json')
  const title = opts.title ?? appName
  const doc = buildOpenApi(table, { title, version: opts.apiVersion ?? '0.1.0', schemas: await loadSchemas(root) })
  const dir = dirname(output)
  await mkdir(dir, { recursive: true })
  await replaceFile(output, `${JSON.stringify(doc, null, 2)}\n`)
  const page = join(dir, 'swagger.html')
  await replaceFile(page, swaggerHtml(title, basename(output)))
  const assets = swaggerUiDir()
  const written = [output, page]
  for (const asset of EXPLORER_ASSETS) {
    await replaceFile(join(dir, asset), await readFile(join(assets, asset)))
    written.push(join(dir, asset))
  }
  return written
}

/** Writes `data` to `file` unless it already holds it; readers see the old file or the new one, never a part. */
async function replaceFile(file: string, data: string | Buffer): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data
  const existing = await readFile(file).catch(() => undefined)
  if (existing?.equals(bytes)) return
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temp, bytes)
  await rename(temp, file)
}
