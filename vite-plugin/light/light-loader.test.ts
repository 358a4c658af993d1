// The CLI's light loader gives what loading through Vite gives: the same reports and route types
// for the playground, byte for byte; and an app it cannot load as Vite would (import.meta.env,
// an import without its extension, a missing export, an alias) is loaded through Vite, with
// Vite's result. Which loader ran shows in runnerCounts(): only Vite's runners are counted.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runnerCounts } from '../app-loader.ts'
import { PLAYGROUND, runMain, useTempApps } from '../cli/commands/test/run-cli.ts'
import { CACHE_FILE } from '../cli/commands/inspect-cache.ts'
import { copyFixture } from '../test/built-app.ts'

const makeApp = useTempApps()
const copies: string[] = []
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A copy of the playground under the repo's .scratch/ (its `vela` imports resolve to this package). */
function playground(): string {
  const scratch = join(PLAYGROUND, '..', '.scratch')
  mkdirSync(scratch, { recursive: true })
  const dir = mkdtempSync(join(scratch, 'light-playground-'))
  copies.push(dir)
  const skip = ['.data', '.vela', 'dist'].map((d) => join(PLAYGROUND, d))
  cpSync(PLAYGROUND, dir, { recursive: true, filter: (src) => !skip.includes(src) })
  return dir
}

/** `vela <args>` in-process with the inspection cache cleared, through `loader`; and whether a Vite runner was opened. */
async function run(args: string[], root: string, loader: 'light' | 'vite') {
  rmSync(join(root, CACHE_FILE), { force: true })
  const before = runnerCounts().opened
  const was = process.env.VELA_CLI_LOADER
  process.env.VELA_CLI_LOADER = loader === 'vite' ? 'vite' : ''
  try {
    const res = await runMain([...args, '--root', root])
    return { code: res.code, stdout: res.stdout, stderr: res.stderr, vite: runnerCounts().opened > before }
  } finally {
    if (was === undefined) delete process.env.VELA_CLI_LOADER
    else process.env.VELA_CLI_LOADER = was
  }
}

const APP = `import { defineApp } from 'vela'
export default defineApp({ bootstrapApplication: 'light', routes: {} })
`
const routeFile = (head: string, path: string) => `import { defineRoutes, json } from 'vela'
${head}
export default defineRoutes({ prefix: '', security: false, routes: [['GET ' + ${path}, () => json({})]] })
`
const paths = (stdout: string) => (JSON.parse(stdout).hosts[0].routes as { path: string }[]).map((r) => r.path)

describe('the playground', () => {
  it('every inspection report, text and JSON, is the same through the light loader as through Vite', async () => {
    const root = playground()
    for (const args of [['routes'], ['routes', '--json'], ['plugins', '--json'], ['audit', '--json'], ['config']]) {
      const light = await run(args, root, 'light')
      const vite = await run(args, root, 'vite')
      expect(light.vite, args.join(' ')).toBe(false)
      expect(vite.vite, args.join(' ')).toBe(true)
      expect({ ...light, vite: true }, args.join(' ')).toEqual(vite)
    }
  }, 300_000)

  it('`vela types` writes the same .vela/routes.d.ts', async () => {
    const root = playground()
    const file = join(root, '.vela/routes.d.ts')
    expect(await run(['types'], root, 'light')).toMatchObject({ code: 0, vite: false })
    const light = readFileSync(file, 'utf8')
    rmSync(file)
    expect(await run(['types'], root, 'vite')).toMatchObject({ code: 0, vite: true })
    expect(readFileSync(file, 'utf8')).toBe(light)
    expect(light).toContain('"GET /api/products/:id"')
  }, 300_000)
})

describe('what goes through Vite', () => {
  it('a module reading import.meta.env: the route has Vite’s value', async () => {
    const root = makeApp({ 'src/app.ts': APP, 'src/routes/env.ts': routeFile('', "'/' + import.meta.env.MODE") })
    const res = await run(['routes', '--json'], root, 'light')
    expect(res).toMatchObject({ code: 0, stderr: '', vite: true })
    expect(paths(res.stdout)).toEqual(['/development'])
  }, 120_000)

  it('an import without its extension, and an import of a name the module does not export', async () => {
    const lib = "export const prefix = '/lib'\n"
    for (const [head, path, expected] of [
      ["import { prefix } from '../lib/paths'", "prefix + '/a'", '/lib/a'],
      ["import { prefix, nothing } from '../lib/paths.ts'", "prefix + '/b' + (nothing ?? '')", '/lib/b'],
    ]) {
      const root = makeApp({
        'src/app.ts': APP,
        'src/routes/main.ts': routeFile(head!, path!),
        'src/lib/paths.ts': lib,
      })
      const res = await run(['routes', '--json'], root, 'light')
      expect(res, head).toMatchObject({ code: 0, stderr: '', vite: true })
      expect(paths(res.stdout), head).toEqual([expected])
    }
  }, 120_000)

  it('an app whose Vite config sets an alias', async () => {
    const res = await run(['routes', '--json'], copyFixture('aliased'), 'light')
    expect(res).toMatchObject({ code: 0, stderr: '', vite: true })
    expect(paths(res.stdout)).toEqual(['/api/tasks', '/api/tasks/:id'])
  }, 120_000)
})

describe('what the light loader answers itself', () => {
  it('an app module that throws as it runs: exit 2 with its message, as through Vite', async () => {
    const root = makeApp({
      'src/app.ts': APP,
      'src/routes/broken.ts':
        "import { defineRoutes } from 'vela'\nthrow new Error('broken on purpose')\nexport default defineRoutes([])\n",
    })
    const light = await run(['routes'], root, 'light')
    expect(light).toMatchObject({ code: 2, stdout: '', stderr: 'vela routes: broken on purpose\n', vite: false })
    expect({ ...(await run(['routes'], root, 'vite')), vite: false }).toEqual(light)
  }, 120_000)

  it('an app reached through a symbolic link is the same app: its modules are still checked', async () => {
    const root = makeApp({ 'src/app.ts': APP, 'src/routes/main.ts': routeFile('', "'/linked'") })
    const link = `${root}-link`
    symlinkSync(root, link)
    copies.push(link)
    const res = await run(['routes', '--json'], link, 'light')
    expect(res).toMatchObject({ code: 0, stderr: '', vite: false })
    expect(paths(res.stdout)).toEqual(['/linked'])
    writeFileSync(join(root, 'src/routes/main.ts'), routeFile('', "'/' + import.meta.env.MODE"))
    expect(paths((await run(['routes', '--json'], link, 'light')).stdout)).toEqual(['/development'])
  }, 120_000)

  it('a second run in the same process loads the app as it is now', async () => {
    const root = makeApp({ 'src/app.ts': APP, 'src/routes/main.ts': routeFile('', "'/first'") })
    expect(paths((await run(['routes', '--json'], root, 'light')).stdout)).toEqual(['/first'])
    writeFileSync(join(root, 'src/routes/main.ts'), routeFile('', "'/changed'"))
    writeFileSync(join(root, 'src/routes/more.ts'), routeFile('', "'/more'"))
    const res = await run(['routes', '--json'], root, 'light')
    expect(res.vite).toBe(false)
    expect(paths(res.stdout)).toEqual(['/changed', '/more'])
  }, 120_000)
})
