/**
 * The light loader's dialect for the modules the plugin generates (app-entry.ts): file URLs, and
 * each `import.meta.glob` written out as the imports of the files it matches now, keyed as Vite
 * keys them (`/src/routes/api.ts`) and in its order (sorted paths), so the app is the one
 * `virtual:vela/app` makes under Vite.
 */
import { posix, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { EntryDialect } from '../app-entry.ts'
import type { LightTools } from './tools.ts'

/** The dialect for the app in `root`. */
export function lightDialect(root: string, tools: LightTools): EntryDialect {
  const url = (file: string) => pathToFileURL(file).href
  const slashed = root.split('\\').join('/')
  return {
    file: (path) => JSON.stringify(pathToFileURL(path).href),
    fromRoot: (path) => JSON.stringify(url(posix.join(slashed, path))),
    glob(name, patterns, { eager = true, import: importName } = {}) {
      const list = typeof patterns === 'string' ? [patterns] : patterns
      // As Vite resolves them: `/…` from the root (escaped), negations as they are, matched from
      // the folder of the first pattern.
      const absolute = list.map((p) => (p.startsWith('/') ? posix.join(tools.escape(slashed), p.slice(1)) : p))
      const cwd = posix.join(slashed, posix.dirname(list.find((p) => p.startsWith('/'))!))
      const files = tools.glob(absolute, cwd)
      const key = (f: string) => JSON.stringify(`/${relative(root, f).split('\\').join('/')}`)
      if (!eager) {
        const loaders = files.map((f) => `${key(f)}: () => import(${JSON.stringify(url(f))})`)
        return `const ${name} = { ${loaders.join(', ')} }`
      }
      const what = importName ? `{ ${importName} as ` : '* as '
      const close = importName ? ' }' : ''
      const imports = files.map((f, i) => `import ${what}${name}_${i}${close} from ${JSON.stringify(url(f))}`)
      const entries = files.map((f, i) => `${key(f)}: ${name}_${i}`)
      return [...imports, `const ${name} = { ${entries.join(', ')} }`].join('\n')
    },
  }
}
