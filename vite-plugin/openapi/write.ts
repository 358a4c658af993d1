/**
 * Writes what `vela openapi` generates: the document (openapi.ts; `info.description` and
 * `info.license` from the app's package.json) at `output` and, next to it, the
 * explorer page `swagger.html` with the script that starts it (`swagger-initializer.js`) and the
 * `swagger-ui-dist` assets it loads (`swagger-ui.css`, `swagger-ui-bundle.js`), so the page works
 * offline and can be served by a static route such as `['/docs/[...]', staticDir('priv/assets')]`.
 * The page names the document by its file name, relative to itself (`data-url`). It has no inline
 * script or style, so it loads under `securityHeaders()`'s default Content-Security-Policy
 * (`script-src 'self'`), and swagger-ui's online validator badge is off (`validatorUrl: null`):
 * nothing is fetched from another origin. `output` (default `priv/assets/openapi.json`) is resolved against
 * the app root. Returns every file written, in order; the CLI prints one `Generated <path>` line
 * per file.
 *
 * Each file is replaced atomically (written beside it, then renamed; the temporary file is removed
 * when the write fails: write-atomically.ts), and left alone when it
 * already holds those bytes: the dev server rewrites the document after every swap, possibly while
 * the explorer is being served, and several dev servers of one app (tests) may write at once.
 */
import { mkdir, readFile, readdir } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { RouteTable } from '../../server/router/compile.ts'
import type { JsonSchema, OpenApiVersion } from './document.ts'
import { buildOpenApi } from './document.ts'
import { writeAtomically } from '../write-atomically.ts'
import { EXPLORER_ASSETS, SWAGGER_INITIALIZER, swaggerHtml, swaggerUiDir } from './explorer.ts'

export interface OpenApiWriteOptions {
  /** Where the document goes (default `priv/assets/openapi.json`), relative to the app root. */
  readonly output?: string
  /** Default: the application name. */
  readonly title?: string
  /** Default `0.1.0`. */
  readonly apiVersion?: string
  /** `'3.0'` (default): OpenAPI 3.0.3; `'3.1'`: OpenAPI 3.1.0. */
  readonly openapi?: OpenApiVersion
}

/** The app's package.json `description` and `license`, for the document's `info` (none without the file). */
export async function packageInfo(root: string): Promise<{ description?: string; license?: string }> {
  const text = await readFile(resolve(root, 'package.json'), 'utf8').catch(() => undefined)
  if (text === undefined) return {}
  try {
    const pkg = JSON.parse(text) as { description?: unknown; license?: unknown }
    return {
      ...(typeof pkg.description === 'string' && pkg.description ? { description: pkg.description } : {}),
      ...(typeof pkg.license === 'string' && pkg.license ? { license: pkg.license } : {}),
    }
  } catch {
    return {}
  }
}

/** Where the document goes by default, relative to the app root (the explorer beside it). */
export const OPENAPI_OUTPUT = 'priv/assets/openapi.json'

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

export async function writeOpenApi(
  root: string,
  appName: string,
  table: RouteTable,
  opts: OpenApiWriteOptions = {},
): Promise<string[]> {
  const output = resolve(root, opts.output ?? OPENAPI_OUTPUT)
  const title = opts.title ?? appName
  const doc = buildOpenApi(table, {
    title,
    version: opts.apiVersion ?? '0.1.0',
    schemas: await loadSchemas(root),
    openapi: opts.openapi,
    ...(await packageInfo(root)),
  })
  const dir = dirname(output)
  await mkdir(dir, { recursive: true })
  await replaceFile(output, `${JSON.stringify(doc, null, 2)}\n`)
  const page = join(dir, 'swagger.html')
  await replaceFile(page, swaggerHtml(title, basename(output)))
  const initializer = join(dir, 'swagger-initializer.js')
  await replaceFile(initializer, SWAGGER_INITIALIZER)
  const assets = swaggerUiDir()
  const written = [output, page, initializer]
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
  await writeAtomically(file, bytes)
}
