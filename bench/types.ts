/**
 * `npm run bench -- types`: what the typed client costs the compiler as routes grow. Makes an app
 * of 300 routes (60 controllers × index/show/create/update/delete, the creates validated with a
 * `priv/schemas` file and declaring their 201), has `vela types` write its `.vela/routes.d.ts`,
 * then times `tsc --noEmit` (median of BENCH_ROUNDS, default 3) on the app alone, with the
 * generated file and a client module calling one controller's 5 routes, and with a client module
 * calling every one of the 300 routes. The difference is what the generated
 * types and the checked calls add; an editor pays a share of it per file it re-checks.
 * Knobs: BENCH_ROUTES (default 300, a multiple of 5), BENCH_ROUNDS.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const ROUTES = Number(process.env.BENCH_ROUTES) || 300
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 3
const CONTROLLERS = Math.ceil(ROUTES / 5)

const controller = (i: number) => `import { json, status } from 'vela'
import type { VelaRequest } from 'vela'

interface Item${i} { id: number; name: string; size${i}: number; tags: string[] }
const items: Item${i}[] = []
const find = (req: VelaRequest) => items.find((it) => it.id === Number(req.bindings.id))
const missing = () => status(404, { error: 'not found' })

export const index = () => json({ items, total: items.length })
export function show(req: VelaRequest) {
  const it = find(req)
  return it ? json(it) : missing()
}
export function create(req: VelaRequest) {
  const it = { ...(req.json as Omit<Item${i}, 'id'>), id: items.length + 1 }
  items.push(it)
  return json(it, { status: 201 })
}
export function update(req: VelaRequest) {
  const it = find(req)
  return it ? json(Object.assign(it, req.json)) : missing()
}
export function remove(req: VelaRequest) {
  return find(req) ? status(204) : missing()
}
`

const routes = (i: number) => `import { defineRoutes } from 'vela'
import * as c from '../controllers/items${i}_controller.ts'

export default defineRoutes({
  prefix: '/api/items${i}',
  security: false,
  routes: [
    ['GET /', c.index],
    ['GET /:id', c.show],
    ['POST /', c.create, { validate: { body: 'item${i}' }, responses: { 201: 'item${i}' } }],
    ['PUT /:id', c.update],
    ['DELETE /:id', c.remove],
  ],
})
`

const schema = (i: number) =>
  JSON.stringify({
    type: 'object',
    properties: {
      id: { type: 'integer', readOnly: true },
      name: { type: 'string' },
      [`size${i}`]: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['name', `size${i}`],
  })

const calls = (n: number) => {
  const lines = [
    "import { createClient } from 'vela/client'",
    "import type { Routes } from 'virtual:vela/routes'",
    '',
    "const api = createClient<Routes>('http://localhost:8080')",
    '',
    'export async function all(): Promise<number> {',
    '  let n = 0',
  ]
  for (let i = 0; i < n; i++) {
    lines.push(
      `  { const r = await api.get('/api/items${i}'); if (r.status === 200) n += r.body.total }`,
      `  { const r = await api.get('/api/items${i}/:id', { params: { id: 1 } }); if (r.status === 200) n += r.body.size${i}; else n += r.body.error.length }`,
      `  { const r = await api.post('/api/items${i}', { body: { name: 'x', size${i}: 1, tags: [] } }); if (r.status === 201) n += r.body.name.length }`,
      `  { const r = await api.put('/api/items${i}/:id', { params: { id: 1 }, body: { name: 'y' } }); n += r.status }`,
      `  { const r = await api.delete('/api/items${i}/:id', { params: { id: 1 } }); n += r.status }`,
    )
  }
  return [...lines, '  return n', '}', ''].join('\n')
}

const tsconfig = (include: string[]) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2023',
      lib: ['ES2023', 'DOM'],
      module: 'ESNext',
      moduleResolution: 'bundler',
      allowImportingTsExtensions: true,
      verbatimModuleSyntax: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      types: ['node'],
    },
    include,
  })

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function timeTsc(root: string, project: string): number {
  const tsc = join(REPO, 'node_modules/typescript/bin/tsc')
  const times: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const began = performance.now()
    execFileSync(process.execPath, [tsc, '-p', join(root, project)], { cwd: root, stdio: 'inherit' })
    times.push(performance.now() - began)
  }
  return median(times)
}

execFileSync(process.execPath, [join(REPO, 'scripts/build-package.mjs')], { stdio: 'inherit' })
mkdirSync(join(REPO, '.scratch'), { recursive: true })
const root = mkdtempSync(join(REPO, '.scratch', 'bench-types-'))
try {
  write(root, 'vite.config.ts', "import vela from 'vela/vite'\nexport default { plugins: [vela()] }\n")
  write(
    root,
    'src/app.ts',
    "import { defineApp } from 'vela'\nexport default defineApp({ bootstrapApplication: 'bench' })\n",
  )
  for (let i = 0; i < CONTROLLERS; i++) {
    write(root, `src/controllers/items${i}_controller.ts`, controller(i))
    write(root, `src/routes/items${i}.ts`, routes(i))
    write(root, `priv/schemas/item${i}.json`, schema(i))
  }
  write(root, 'client.ts', calls(CONTROLLERS))
  write(root, 'client-one.ts', calls(1))
  write(root, 'tsconfig.app.json', tsconfig(['src']))
  write(root, 'tsconfig.one.json', tsconfig(['src', '.vela/routes.d.ts', 'client-one.ts']))
  write(root, 'tsconfig.client.json', tsconfig(['src', '.vela/routes.d.ts', 'client.ts']))
  const began = performance.now()
  execFileSync(process.execPath, [join(REPO, 'vite-plugin/bin.mjs'), 'types'], { cwd: root, stdio: 'inherit' })
  const generate = performance.now() - began
  const app = timeTsc(root, 'tsconfig.app.json')
  const one = timeTsc(root, 'tsconfig.one.json')
  const client = timeTsc(root, 'tsconfig.client.json')
  console.log(`routes: ${CONTROLLERS * 5}; vela types: ${Math.round(generate)} ms (app load included)`)
  console.log(
    `tsc --noEmit, median of ${ROUNDS}: app alone ${Math.round(app)} ms; + .vela/routes.d.ts and 5 client calls ${Math.round(one)} ms; ` +
      `+ .vela/routes.d.ts and all ${CONTROLLERS * 5} client calls ${Math.round(client)} ms (added: ${Math.round(client - app)} ms, ${((client - one) / (CONTROLLERS * 5 - 5)).toFixed(1)} ms per call)`,
  )
} finally {
  rmSync(root, { recursive: true, force: true })
}
