// The typed client end to end on the typed-client fixture: `.vela/routes.d.ts` is written by
// `vela types`, the dev server (at start and on a swap), `vite build` and vitest's start; calls that should compile do and
// calls with a wrong path, params or body do not (tsc on the fixture's client-calls.ts); handlers of
// routes validated by a priv/schemas name see its type (handler-types.ts); and
// `createClient` against the running app gives the status and body the server answered.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build, createServer } from 'vite'
import { expect, it } from 'vitest'
import { createClient, type QueryValue } from '../client/index.ts'
import { until } from '../test/support/until.ts'
import { runMain } from './cli/commands/test/run-cli.ts'
import { startDevServer } from './dev/dev-server.ts'
import vela from './index.ts'
import { useTempDirs } from './test/built-app.ts'

const temp = useTempDirs()
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
const typesFile = (root: string) => join(root, '.vela/routes.d.ts')

/** tsc's report on the fixture's client calls ('' when they compile). */
async function compile(root: string): Promise<string> {
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', join(root, 'tsconfig.json')], { cwd: root })
    return ''
  } catch (err) {
    return `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}` || String(err)
  }
}

it('vela types writes the route types; the client calls compile and the wrong ones stay errors', async () => {
  const root = temp.fixture('typed-client')
  const first = await runMain(['types'], root)
  expect(first.stderr).toBe('')
  expect(first.stdout).toBe('Generated .vela/routes.d.ts\n')
  const text = readFileSync(typesFile(root), 'utf8')
  expect(text).toContain('"GET /api/products/:id": {')
  expect(text).toContain('type In_product = { name: string; price: number }')
  // A list whose items `$ref` another file: typed as that file's type, not unknown[].
  expect(text).toContain(
    'type Out_product_list = { products: Out_product[]; total: number; tags: Out_product_list__tag[] }',
  )
  expect(text).toContain(
    `declare module 'vela' {\n  interface VelaSchemas {\n    "product": In_product\n    "product_patch": In_product_patch\n  }\n}`,
  )
  expect(await compile(root)).toBe('')
  expect((await runMain(['types'], root)).stdout).toBe('.vela/routes.d.ts is up to date\n')

  // The compile does check these calls: one more wrong call, not marked, is reported.
  const calls = join(root, 'client-calls.ts')
  writeFileSync(calls, `${readFileSync(calls, 'utf8')}\nvoid api.get('/api/nope')\n`)
  expect(await compile(root)).toMatch(/client-calls\.ts\(\d+,\d+\): error TS2345: Argument of type '"\/api\/nope"'/)
  writeFileSync(calls, readFileSync(calls, 'utf8').replace("\nvoid api.get('/api/nope')\n", '\n'))
  // And a handler's wrong use of a schema-typed body, not marked, is reported.
  const handlers = join(root, 'handler-types.ts')
  writeFileSync(
    handlers,
    `${readFileSync(handlers, 'utf8')}\nexport const wrong = defineRoute('POST /w', (req) => json({ n: req.json.price.trim() }), { validate: { body: 'product' } })\n`,
  )
  expect(await compile(root)).toMatch(
    /handler-types\.ts\(\d+,\d+\): error TS2339: Property 'trim' does not exist on type 'number'/,
  )
}, 120_000)

it('createClient against the running app: statuses and bodies, path params, repeated query keys, JSON and text replies', async () => {
  const root = temp.fixture('typed-client')
  const server = await startDevServer({ root, port: 0, plugins: [vela({ dev: { log: () => {} } })] })
  try {
    // The dev server wrote the route types as the app loaded.
    await until('.vela/routes.d.ts written', () => existsSync(typesFile(root)), 30_000)
    const api = createClient(server.url) as unknown as LooseClient
    expect(await api.get('/api/products/:id', { params: { id: 1 } })).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Lamp', price: 1200 },
    })
    expect(await api.get('/api/products/:id', { params: { id: 9 } })).toMatchObject({
      status: 404,
      body: { error: 'product not found' },
    })
    const made = await api.post('/api/products', { body: { name: 'Desk', price: 9900 } })
    expect(made).toMatchObject({ status: 201, body: { id: 2, name: 'Desk', price: 9900 } })
    expect(made.headers.get('content-type')).toMatch(/application\/json/)
    expect(await api.patch('/api/products/:id', { params: { id: 2 }, body: { price: 1 } })).toMatchObject({
      status: 200,
      body: { id: 2, price: 1 },
    })
    const list = await api.get('/api/products', { query: { tag: ['a b', 'c'], skip: undefined } })
    expect(list).toMatchObject({ status: 200, body: { total: 2, tags: ['a b', 'c'] } })
    expect(await api.get('/api/hello')).toMatchObject({ status: 200, body: 'hello' })
    expect(await api.delete('/api/products/:id', { params: { id: 2 } })).toMatchObject({ status: 204, body: undefined })
    // Headers from the options (a function, called per call) and per call.
    const seen: Request[] = []
    const spy = createClient(server.url, {
      headers: () => ({ authorization: 'Bearer t' }),
      fetch: (req) => (seen.push(req), fetch(req)),
    }) as unknown as LooseClient
    expect((await spy.get('/api/products/:id', { params: { id: 1 }, headers: { 'x-trace': '1' } })).status).toBe(200)
    expect([
      seen[0]!.headers.get('authorization'),
      seen[0]!.headers.get('x-trace'),
      seen[0]!.headers.get('accept'),
    ]).toEqual(['Bearer t', '1', 'application/json'])

    // A route added while the dev server runs: the swap rewrites the types.
    const routes = join(root, 'src/routes/api.ts')
    writeFileSync(
      routes,
      readFileSync(routes, 'utf8').replace(
        "['GET /hello', products.hello],",
        "['GET /hello', products.hello],\n    ['GET /added', products.hello],",
      ),
    )
    await until(
      'the added route in .vela/routes.d.ts',
      () => readFileSync(typesFile(root), 'utf8').includes('"GET /api/added": {'),
      60_000,
    )
  } finally {
    await server.close()
  }
}, 90_000)

/** Any path of any method: the runtime test checks what the server answers, not the types. */
type LooseCall = (
  path: string,
  options?: {
    params?: Record<string, string | number>
    query?: Record<string, QueryValue>
    body?: unknown
    headers?: HeadersInit
  },
  // biome-ignore lint/suspicious/noExplicitAny: the body's shape differs per route; the tests read it at run time
) => Promise<{ status: number; body: any; headers: Headers }>
type LooseClient = Record<'get' | 'post' | 'put' | 'patch' | 'delete', LooseCall>

it('vite build and vitest write the route types too', async () => {
  const root = temp.fixture('typed-client')
  await build({
    root,
    configFile: false,
    plugins: [vela()],
    logLevel: 'silent',
    build: { outDir: join(temp.dir('vela-typed-build-'), 'server'), emptyOutDir: true },
  })
  expect(readFileSync(typesFile(root), 'utf8')).toContain('"POST /api/tags": {')

  rmSync(typesFile(root))
  // vitest's own Vite server (VITEST is set here, and the server has a plugin named vitest).
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [vela(), { name: 'vitest' }],
    server: { middlewareMode: true },
  })
  try {
    expect(readFileSync(typesFile(root), 'utf8')).toContain('"DELETE /api/products/:id": {')
  } finally {
    await server.close()
  }
}, 120_000)
