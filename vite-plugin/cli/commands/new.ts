/**
 * `vela new <dir> [--name <app>]`: writes a starter app into a new (or empty) folder: package.json,
 * vite.config.ts, tsconfig.json, .gitignore, .node-version (24), README.md, and a notes app: src/app.ts (start hook:
 * open the database, migrate), src/repo.ts, src/schemas/note.ts with its migration, a route group,
 * a controller, a view and its stylesheet, and test/notes.test.ts with `vela/testing`.
 * `npm install && npm run dev` runs it and `npm test` passes as generated.
 *
 * - **Choice:** the template's files are a fixed list (`TEMPLATE_FILES`) read from `../template/`
 *   beside this module, which holds in the repo (`vite-plugin/template/`) and in the package
 *   (`dist/vite-plugin/template/`, copied by the build). A list, not a folder walk: whatever else
 *   lands in that folder (compiled output, editor files) is never written into an app.
 * - **Choice:** package.json, tsconfig.json, .gitignore and .node-version are written from code: package.json
 *   carries the app's name and Vela's own version; npm pack would drop a `.gitignore` from the
 *   package; a tsconfig.json in the template folder would become the one editors and Vite use for
 *   the template's files inside this repo.
 * - The migration is the template's `src/migrations/create_notes.ts`, exactly what `vela migrations
 *   generate` writes for src/schemas/note.ts, named as it would name it now (`m<UTC time>_create_notes.ts`),
 *   so a later generate writes nothing.
 * - `__APP_NAME__` in the template's files becomes the app's name (README title, `bootstrapApplication`).
 * - The name is `--name`, else the folder's name made a valid npm package name; it may not be one
 *   of the app's own dependencies (npm refuses to install `vela` into a package named `vela`).
 * - **Choice:** a fresh checkout type-checks before `.vela/routes.d.ts` exists (it is
 *   git-ignored, and written only by `vite`, `vitest`, `vite build` and `vela types`): until then
 *   `createClient<Routes>` is untyped and a `priv/schemas` name in `defineRoute` is `any`, and
 *   `npm run typecheck` writes the file first (`vela types && tsc --noEmit`), so it checks against
 *   the routes. No install script writes it: one that loads the app could fail `npm install`, and
 *   `--ignore-scripts` would skip it. `vite.config.ts` references `vitest/config`, so a `test` block
 *   (`test: { env }`) type-checks in it.
 * - Nothing is overwritten: a folder that exists and is not empty is refused (exit 1) before
 *   anything is written, and each file is created with `wx`. Usage errors exit 2 (commands/args.ts).
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { versionAfter } from '../../../dbl/migrations/generate.ts'
import { migrationFileName } from '../../../dbl/migrations/load.ts'
import { UsageError, defineCommand } from './args.ts'

const TEMPLATE_DIR = fileURLToPath(new URL('../../template/', import.meta.url))

/** Copied as they are (but `__APP_NAME__`), from the template folder to the same path in the app (but the migration's). */
export const TEMPLATE_FILES = [
  'README.md',
  'vite.config.ts',
  'src/app.ts',
  'src/repo.ts',
  'src/schemas/note.ts',
  'src/migrations/create_notes.ts',
  'src/routes/notes.ts',
  'src/controllers/notes_controller.ts',
  'src/views/notes.liquid',
  'priv/schemas/note.json',
  'priv/schemas/note_page.json',
  'priv/static/app.css',
  'test/notes.test.ts',
] as const
/** The template's migration, written as `src/migrations/m<version>_create_notes.ts`. */
const MIGRATION = 'src/migrations/create_notes.ts'

/** Starter versions when Vela's package.json does not name them (it lists what it is tested with). */
const TOOLCHAIN: Record<string, string> = { vite: '^8.4.1', vitest: '^5.1.2', '@types/node': '^22' }
/** The Node.js line a new app runs on (`.node-version`, read by fnm, nvm, volta, asdf and CI images). */
const NODE_LINE = '24'
/**
 * Starter versions whatever Vela's package.json says. TypeScript 5: tools an app commonly adds
 * (openapi-typescript, typescript-eslint) have a peer dependency on `typescript@^5`, and npm
 * refuses to install them beside a newer major (ERESOLVE). Vela's published types compile with it.
 */
const PINNED: Record<string, string> = { typescript: '^5.9.3' }
const STARTER_DEV_DEPENDENCIES = [...Object.keys(TOOLCHAIN), ...Object.keys(PINNED)].sort()

const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/

export const newCommand = defineCommand({
  name: 'new',
  summary: 'a starter app in a new or empty folder',
  description: `Writes a small notes app into <dir>: package.json (vela, vite, vitest, typescript), vite.config.ts,
tsconfig.json, src/ (app, repo, schema and its migration, routes, controller, view), priv/schemas,
priv/static (the page's stylesheet) and test/notes.test.ts. Then: cd <dir>, npm install, npm run dev. Nothing is overwritten: a folder
that exists and is not empty is refused.`,
  positionals: [{ name: '<dir>', required: true, description: 'the folder to create (or an empty one)' }],
  options: {
    name: {
      type: 'string',
      value: '<app>',
      description: 'the package and app name',
      byDefault: "made from the folder's name",
    },
  },
  example: 'vela new notes-app\ncd notes-app && npm install && npm run dev',
  async run({ values, positionals, display }) {
    const dir = resolve(positionals[0]!)
    const name = appName(dir, values.name)
    const refusal = await refusalFor(dir, display)
    if (refusal) {
      console.error(`vela new: ${refusal}; nothing was written`)
      return 1
    }
    for (const [path, text] of await appFiles(name)) {
      const file = join(dir, path)
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, text, { flag: 'wx' })
      console.log(`Generated ${display(file)}`)
    }
    const cd = display(dir) || '.'
    console.log(`\nNext:\n  cd ${cd.includes(' ') ? JSON.stringify(cd) : cd}\n  npm install\n  npm run dev`)
    return 0
  },
})

/** `--name`, else the folder's name made a package name; refused when npm could not install the app. */
function appName(dir: string, given: string | undefined): string {
  const name = given ?? nameFromFolder(basename(dir))
  if (given !== undefined && !NPM_NAME.test(name)) {
    throw new UsageError(
      `--name ${JSON.stringify(name)} is not a valid package name (lowercase letters, digits, - . _ ~, an optional @scope/)`,
    )
  }
  if (!name)
    throw new UsageError(
      `no package name can be made from the folder name ${JSON.stringify(basename(dir))}: add --name <app>`,
    )
  if (STARTER_DEV_DEPENDENCIES.includes(name) || name === 'vela')
    throw new UsageError(
      `the app cannot be named ${JSON.stringify(name)}: it depends on a package of that name; add --name <app>`,
    )
  return name
}

/** `My Notes` → `my-notes`; '' when nothing usable is left. */
function nameFromFolder(folder: string): string {
  return folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
}

async function refusalFor(dir: string, display: (file: string) => string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined
  const shown = display(dir) || '.'
  if (!(await stat(dir)).isDirectory()) return `${shown} exists and is not a folder`
  const entries = await readdir(dir)
  if (entries.length > 0)
    return `${shown} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); use a new or empty folder`
  return undefined
}

/** Every file of the app, path relative to its folder → contents, in the order they are reported. */
async function appFiles(name: string): Promise<Map<string, string>> {
  const vela = await ownPackageJson()
  const files = new Map<string, string>([
    ['package.json', json(packageJson(name, vela))],
    ['tsconfig.json', json(TSCONFIG)],
    ['.node-version', `${NODE_LINE}\n`],
    [
      '.gitignore',
      "node_modules/\ndist/\n.data/\n# written by vite build / vela openapi from priv/schemas\npriv/assets/\n# route types for vela/client, and the inspection commands' cache (vela routes, plugins, audit, config)\n.vela/\n",
    ],
  ])
  const template = (path: string) =>
    readFile(join(TEMPLATE_DIR, path), 'utf8').then((t) => t.replaceAll('__APP_NAME__', name))
  const migration = `src/migrations/${migrationFileName(versionAfter(new Date(), undefined), 'create_notes')}`
  for (const path of TEMPLATE_FILES) files.set(path === MIGRATION ? migration : path, await template(path))
  return files
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

interface PackageJson {
  name?: string
  version?: string
  engines?: Record<string, string>
  peerDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

function packageJson(name: string, vela: PackageJson) {
  const range = (dep: string) =>
    PINNED[dep] ?? vela.peerDependencies?.[dep] ?? vela.devDependencies?.[dep] ?? TOOLCHAIN[dep]!
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    ...(vela.engines?.node ? { engines: { node: vela.engines.node } } : {}),
    scripts: {
      dev: 'vite',
      build: 'vite build',
      start: 'node dist/server/index.mjs',
      test: 'vitest run',
      // The route types first, so the check is against the routes as they are now.
      typecheck: 'vela types && tsc --noEmit',
    },
    dependencies: { vela: `^${vela.version}` },
    devDependencies: Object.fromEntries(STARTER_DEV_DEPENDENCIES.map((dep) => [dep, range(dep)])),
  }
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'bundler',
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    // vela/client declares the virtual modules (virtual:vela/migrations), as vite/client does for Vite's.
    types: ['node', 'vela/client'],
  },
  // .vela/routes.d.ts: the app's routes as types (`import type { Routes } from 'virtual:vela/routes'`).
  include: ['src', 'test', 'vite.config.ts', '.vela/routes.d.ts'],
}

/** Vela's package.json: the nearest one named `vela` above this module (the repo's, or the installed package's). */
async function ownPackageJson(): Promise<PackageJson> {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const pkg = JSON.parse(await readFile(file, 'utf8')) as PackageJson
      if (pkg.name === 'vela' && pkg.version) return pkg
    }
    if (dirname(dir) === dir) throw new Error('vela new: cannot find the vela package.json above this module')
  }
}
