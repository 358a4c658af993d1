// The build's one module runner (build-runner.ts): opened once per build, whichever step needs it
// first, and closed in closeBundle whether the build succeeds or fails where it may fail (in
// buildStart, in a module that does not compile, in writeBundle); the files the build generated are
// listed in the plugin's api.
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Rolldown } from 'vite'
import { build } from 'vite'
import { expect, it } from 'vitest'
import { runnerCounts } from '../app-loader.ts'
import vela from '../index.ts'
import { useTempDirs } from '../test/built-app.ts'

const temp = useTempDirs()
const ASSETS = ['openapi.json', 'swagger.html', 'swagger-initializer.js', 'swagger-ui.css', 'swagger-ui-bundle.js']

/** Builds `root` with `plugin` alone; how many runners the build opened, how many are open after it, and its error. */
async function buildCounting(root: string, plugin = vela()) {
  const before = runnerCounts()
  const error = await build({ root, configFile: false, plugins: [plugin], logLevel: 'silent' }).then(
    () => undefined,
    (err: Error) => err,
  )
  const after = runnerCounts()
  return { opened: after.opened - before.opened, open: after.open, error }
}

/** The notes fixture (src/schemas, priv/schemas) with `text` appended to `file`. */
function notes(file?: string, text = ''): string {
  const root = temp.fixture('notes')
  if (file) appendFileSync(join(root, file), text)
  return root
}

it('a build that writes a migration and the OpenAPI files opens one runner, closes it, and lists the files in api.generated', async () => {
  const root = notes()
  const schema = join(root, 'src/schemas/note.ts')
  writeFileSync(
    schema,
    readFileSync(schema, 'utf8').replace(
      "body: { type: 'text', nullable: false } }",
      "body: { type: 'text', nullable: false }, title: 'string' }",
    ),
  )
  const plugin = vela()
  expect(await buildCounting(root, plugin)).toEqual({ opened: 1, open: 0, error: undefined })
  const migration = readdirSync(join(root, 'src/migrations')).find((f) => f.endsWith('_alter_notes.ts'))
  expect(migration).toBeDefined()
  expect(plugin.api!.generated).toEqual([
    join(root, 'src/migrations', migration!),
    ...ASSETS.map((f) => join(root, 'priv/assets', f)),
  ])

  // Built again: a new runner, and the list is the second build's (no migration this time).
  expect(await buildCounting(root, plugin)).toEqual({ opened: 1, open: 0, error: undefined })
  expect(plugin.api!.generated).toEqual(ASSETS.map((f) => join(root, 'priv/assets', f)))
}, 60_000)

it('an app without src/schemas: writeBundle opens the runner, still one', async () => {
  const root = temp.fixture('basic')
  const plugin = vela()
  expect(await buildCounting(root, plugin)).toEqual({ opened: 1, open: 0, error: undefined })
  expect(plugin.api!.generated).toEqual([])
}, 60_000)

it('a build stopped in buildStart (a possible rename to decide) leaves no runner open', async () => {
  const root = notes()
  writeFileSync(
    join(root, 'src/schemas/note.ts'),
    `import { defineSchema } from 'vela/dbl'\nexport const Note = defineSchema({ table: 'notes', fields: { id: 'id', text: 'text' } })\n`,
  )
  const { opened, open, error } = await buildCounting(root)
  expect(error?.message).toContain('The build does not decide this')
  expect({ opened, open }).toEqual({ opened: 1, open: 0 })
}, 60_000)

it('a module that does not compile fails the bundle after buildStart opened the runner: none is left open', async () => {
  const root = notes('src/controllers/notes_controller.ts', '\nexport const broken = (\n')
  const { opened, open, error } = await buildCounting(root)
  expect(error?.message).toMatch(/notes_controller\.ts/)
  expect({ opened, open }).toEqual({ opened: 1, open: 0 })
}, 60_000)

it('an app failing to load in writeBundle fails the build: none is left open', async () => {
  const root = notes('src/app.ts', "\nthrow new Error('app.ts fails on purpose')\n")
  const { opened, open, error } = await buildCounting(root)
  expect(error?.message).toContain('app.ts fails on purpose')
  expect({ opened, open }).toEqual({ opened: 1, open: 0 })
}, 60_000)

it('under --watch, the rebuild after one that failed in writeBundle closes the runner Vite left open, and reads the app afresh', async () => {
  const root = notes()
  const app = join(root, 'src/app.ts')
  const source = readFileSync(app, 'utf8')
  writeFileSync(app, `${source}\nthrow new Error('app.ts fails on purpose')\n`)
  const before = runnerCounts()
  const watcher = (await build({
    root,
    configFile: false,
    plugins: [vela()],
    logLevel: 'silent',
    build: { watch: {} },
  })) as Rolldown.RolldownWatcher
  // Every event in order; `built(n)` resolves once the n-th build has ended (END).
  const codes: string[] = []
  const waiting: Array<{ ends: number; resolve: () => void }> = []
  watcher.on('event', (event) => {
    codes.push(event.code)
    const ends = codes.filter((c) => c === 'END').length
    for (const w of waiting.filter((w) => w.ends === ends)) w.resolve()
  })
  const built = (ends: number) => new Promise<void>((resolve) => waiting.push({ ends, resolve }))
  try {
    // A failed build is ERROR then END; Vite closes no bundle then, so the runner stays open.
    await built(1)
    expect(codes).toEqual(['START', 'BUNDLE_START', 'ERROR', 'END'])
    expect(runnerCounts()).toEqual({ opened: before.opened + 1, open: 1 })
    writeFileSync(app, source)
    await built(2)
    expect(codes.slice(4)).toEqual(['START', 'BUNDLE_START', 'BUNDLE_END', 'END'])
    // The rebuild's buildStart closed it and opened its own, on the fixed app (which Vite may be
    // closing already).
    expect(runnerCounts().opened).toBe(before.opened + 2)
    expect(runnerCounts().open).toBeLessThanOrEqual(1)
  } finally {
    await watcher.close()
  }
  expect(runnerCounts().open).toBe(0)
}, 60_000)
