/**
 * The CLI's light loader: the app's modules imported by Node itself, with module hooks
 * (`module.registerHooks`) that do what Vite's module runner would for a plain app, and nothing
 * else: TypeScript through Oxc's transform (the one Vite uses, tools.ts), JSON files as modules,
 * and `virtual:vela/app` / `virtual:vela/migrations` generated as the plugin generates them, their
 * globs listed (entries.ts). No Vite config is resolved, no plugin pipeline or dev environment is
 * made: loading the playground to read its routes costs a third of the CPU and half the memory
 * it did through Vite (docs/project/benchmarks.md, "CLI").
 *
 * The app's own files (under its root, outside `node_modules`) go through the hooks; packages
 * load as Node loads them, as Vite's SSR environment externalizes them. What the hooks do not do
 * as Vite would is refused with a `LightLoaderUnsupported` error: a module using `import.meta.env`,
 * `.glob` or `.hot`, an import of another virtual module, of a file outside the root, of another
 * file type or with a query (`?raw`), one Node cannot resolve (no extension, an alias), a transform
 * error. Node itself refuses an import of a name a module does not export, or of JSON without
 * `with { type: 'json' }`. In the app's static imports all of these come before any of its modules
 * has run (Node resolves, loads and links the whole graph first); `ran()` tells whether one had
 * (each app module sets a mark as it starts), so the caller loads the app through Vite instead
 * when none had (cli/commands/load.ts).
 *
 * Each runner's modules are its own: Node never forgets a module, so a second runner in the same
 * process (tests call the CLI in-process) imports the app's files under URLs with a query
 * (`?vela-light=2`); the first keeps their plain URLs. `close()` removes the hooks.
 */
import { readFileSync, realpathSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { extname, isAbsolute, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { AppRunner, ImportModule } from '../app-module.ts'
import { APP_ENTRY, MIGRATIONS_ENTRY, MIGRATIONS_MODULE, appEntrySource, migrationsEntrySource } from '../app-entry.ts'
import { failedToLoad } from '../load-failure.ts'
import { lightDialect } from './entries.ts'
import type { LightTools } from './tools.ts'

/** A module the light loader does not load as Vite would: the app goes through Vite. */
export class LightLoaderUnsupported extends Error {
  override name = 'LightLoaderUnsupported'
}

export interface LightRunner extends AppRunner {
  /** Whether a module of the app began to run under this runner. */
  ran(): boolean
}

type NativeImport = (url: string) => Promise<Record<string, unknown>>
// Node's own import(), from a module of its own: a test runner rewrites `import()` in the modules it
// runs (vitest runs the CLI in-process in tests) and would take the app's modules over from the
// hooks; a `data:` module is left to Node.
let nativeImport: Promise<NativeImport> | undefined
const NATIVE_IMPORT = 'data:text/javascript,export default (url) => import(url)'
const importNatively: NativeImport = async (url) =>
  (await (nativeImport ??= import(NATIVE_IMPORT).then((m: { default: NativeImport }) => m.default)))(url)

// Set by each app module as it starts (a registered symbol: the modules' code names it too).
const MARK = 'vela.lightLoader.ran'
const USES_VITE = /\bimport\.meta\.(env|glob|hot)\b/
const TRANSFORMED = new Set(['.ts', '.mts'])
const AS_IS = new Set(['.js', '.mjs'])
let runners = 0

/** A runner for the app in `root` whose module `vela()` names `app` (default `/src/app.ts`). */
export function openLightRunner(root: string, app: string | undefined, tools: LightTools): LightRunner {
  const generation = ++runners
  // Node names modules by their real path: a root reached through a symbolic link is compared as that.
  const rootUrl = pathToFileURL(join(realpathSync(root), '/')).href
  const query = generation === 1 ? '' : `?vela-light=${generation}`
  const appEntryUrl = `${rootUrl}.vela/light-app.mjs${query}`
  const migrationsUrl = `${pathToFileURL(join(root, MIGRATIONS_MODULE)).href}${query}`
  const ownUrl = (url: string) => url.startsWith(rootUrl) && !url.includes('/node_modules/')
  const dialect = lightDialect(root, tools)
  const loaded = new Set<string>()
  // Vite sets it as it resolves its config: the app sees the same value.
  if (!process.env.NODE_ENV) process.env.NODE_ENV = 'development'

  const transformed = (file: string, text: string) => {
    try {
      return tools.transform(file, text)
    } catch (err) {
      throw new LightLoaderUnsupported(`${file}: ${(err as Error).message}`)
    }
  }
  const hooks = registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === APP_ENTRY) return { url: appEntryUrl, shortCircuit: true }
      if (specifier === MIGRATIONS_ENTRY) return { url: migrationsUrl, shortCircuit: true }
      const parent = context.parentURL
      if (!parent || !(ownUrl(parent) || parent === appEntryUrl || parent === migrationsUrl))
        return nextResolve(specifier, context)
      if (specifier.startsWith('virtual:')) throw new LightLoaderUnsupported(`${specifier}: another plugin's module`)
      let url: string
      try {
        url = nextResolve(specifier, context).url
      } catch (err) {
        throw new LightLoaderUnsupported(`${specifier} (from ${parent}): ${(err as Error).message}`)
      }
      if (url.includes('?')) throw new LightLoaderUnsupported(`${specifier}: an import with a query`)
      const relativeImport = specifier.startsWith('.') || specifier.startsWith('/') || isAbsolute(specifier)
      if (relativeImport && url.startsWith('file:') && !ownUrl(url) && !url.includes('/node_modules/'))
        throw new LightLoaderUnsupported(`${specifier}: a file outside the app's root`)
      return { url: ownUrl(url) ? `${url}${query}` : url, shortCircuit: true }
    },
    load(url, context, nextLoad) {
      if (url === appEntryUrl)
        return { format: 'module', source: appEntrySource(app, root, dialect), shortCircuit: true }
      if (url === migrationsUrl) return { format: 'module', source: migrationsEntrySource(dialect), shortCircuit: true }
      if (!url.startsWith('file:')) return nextLoad(url, context)
      const file = fileURLToPath(url.replace(/\?.*$/, ''))
      loaded.add(file)
      const ext = extname(file)
      if (!ownUrl(url)) {
        // TypeScript outside the app and `node_modules` (Vela's own sources, in its tests; a linked
        // package): transformed as Vite, which does not externalize them, would. Not searched for
        // `import.meta.env`: Vela's own comments name it.
        if (!TRANSFORMED.has(ext) || url.includes('/node_modules/')) return nextLoad(url, context)
        return { format: 'module', source: transformed(file, readFileSync(file, 'utf8')), shortCircuit: true }
      }
      const text = readFileSync(file, 'utf8')
      if (ext === '.json') {
        const json = context.importAttributes?.type === 'json'
        return { format: json ? 'json' : 'module', source: json ? text : `export default ${text}`, shortCircuit: true }
      }
      if (!TRANSFORMED.has(ext) && !AS_IS.has(ext))
        throw new LightLoaderUnsupported(`${file}: a ${ext || 'file'} module`)
      if (USES_VITE.test(text)) throw new LightLoaderUnsupported(`${file}: uses import.meta.env, glob or hot`)
      const code = TRANSFORMED.has(ext) ? transformed(file, text) : text
      // On the first line, so the module's line numbers stay its own.
      return {
        format: 'module',
        source: `globalThis[Symbol.for(${JSON.stringify(MARK)})]=${generation};${code}`,
        shortCircuit: true,
      }
    },
  })

  const toUrl = (id: string) => {
    if (!isAbsolute(id)) return id
    const url = pathToFileURL(id).href
    return ownUrl(url) ? `${url}${query}` : url
  }
  const load: ImportModule = (id) => importNatively(toUrl(id)).catch(failedToLoad)
  let closed = false
  return {
    load,
    ran: () => (globalThis as Record<symbol, unknown>)[Symbol.for(MARK)] === generation,
    evaluatedFiles: () => [...loaded],
    async close() {
      if (closed) return
      closed = true
      hooks.deregister()
    },
  }
}
