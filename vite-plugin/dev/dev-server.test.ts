// The development server against a temporary copy of the fixture app: discovery, hot swaps on
// edits (code-only for controllers, stop → start for other files, no restart), failed edits,
// WebSocket upgrades; and, with the `hot` fixture, what a swap re-evaluates and `import.meta.hot`:
// the resources of replaced modules disposed, the others' kept; bounded stop hooks.
import { cpSync, mkdtempSync, rmSync, symlinkSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { connect } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { DevServer } from './dev-server.ts'
import { startDevServer } from './dev-server.ts'
import vela from '../index.ts'
import { startBuilt } from '../test/built-app.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const events = ((globalThis as { velaFixtureEvents?: string[] }).velaFixtureEvents ??= [])
let dir = ''
let server: DevServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vela-dev-'))
  cpSync(fileURLToPath(new URL('../test/fixtures/basic', import.meta.url)), dir, { recursive: true })
  // The copy lives outside the repo: `vela` resolves through node_modules, as in a user's app.
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(repo, join(dir, 'node_modules/vela'), 'dir')
  server = await startDevServer({ root: dir, port: 0, plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })] })
})
afterAll(async () => {
  await server?.close({ timeoutMs: 1000 })
  rmSync(dir, { recursive: true, force: true })
})

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`)
  return { status: res.status, body: await res.text() }
}

/** Polls until `path` answers something other than `before` (the swap is asynchronous). */
async function changed(path: string, before: string, timeoutMs = 30_000): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await get(path)
    if (res.body !== before || Date.now() > deadline) return res
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Lets watcher events of earlier edits (debounced 20 ms) and their swaps finish. */
const quiet = async () => {
  await new Promise((r) => setTimeout(r, 150))
  await server.devApp.settled()
}

const edit = (file: string, from: string, to: string) => {
  const path = join(dir, file)
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to))
}

it('boots the app eagerly: the start hook ran before the first request', () => {
  expect(events).toEqual(['start'])
})

it('serves discovered routes with controller identities from the file names', async () => {
  expect(await get('/hello')).toEqual({ status: 200, body: '{"message":"hello"}' })
  expect(JSON.parse((await get('/identity')).body)).toEqual({ controller: 'greetings_controller', action: 'identity' })
  // `_helpers.ts` is not a controller; inline handlers report their route file.
  expect(JSON.parse((await get('/inline')).body)).toEqual({ controller: 'routes/main', action: 'anonymous', loud: 'X' })
  expect(JSON.parse((await get('/env')).body)).toEqual({ env: 'dev' })
})

it('swaps the app when a controller changes, code only: new body, no hook runs, same process', async () => {
  const before = (await get('/hello')).body
  edit('src/controllers/greetings_controller.ts', "message: 'hello'", "message: 'hello again'")
  expect(await changed('/hello', before)).toEqual({ status: 200, body: '{"message":"hello again"}' })
  await quiet()
  // The started app's resources stay open: neither its stop hook nor a new start ran.
  expect(events).toEqual(['start'])
})

it('restarts the lifecycle when app.ts changes: the old app stopped, then the new one started', async () => {
  edit('src/app.ts', "bootstrapApplication: 'fixture'", "bootstrapApplication: 'fixture-edited'")
  const deadline = Date.now() + 5000
  while (server.devApp.current.config.bootstrapApplication !== 'fixture-edited' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 25))
  expect(server.devApp.current.config.bootstrapApplication).toBe('fixture-edited')
  await quiet()
  expect(events.join(' ')).toMatch(/^start( stop start)+$/)
})

it('picks up a new route file', async () => {
  expect((await get('/added')).status).toBe(404)
  writeFileSync(
    join(dir, 'src/routes/added.ts'),
    "import { json } from 'vela'\nexport default { prefix: '/added', security: false, routes: [['GET /', () => json({ added: true })]] }\n",
  )
  expect(await changed('/added', (await get('/added')).body)).toEqual({ status: 200, body: '{"added":true}' })
})

it('drops a removed route file', async () => {
  await quiet()
  rmSync(join(dir, 'src/routes/added.ts'))
  expect(await changed('/added', '{"added":true}')).toMatchObject({ status: 404 })
  expect((await get('/hello')).status).toBe(200)
})

it('keeps serving the previous version when an edit does not load, and recovers on the fix', async () => {
  await quiet()
  const stops = events.length
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  try {
    edit(
      'src/controllers/greetings_controller.ts',
      "export const hello = () => json({ message: 'hello again' })",
      'export const hello = () => json({ message: ',
    )
    await new Promise((r) => setTimeout(r, 50))
    await server.devApp.reload('test')
    expect(errors.length).toBeGreaterThan(0)
    expect(await get('/hello')).toEqual({ status: 200, body: '{"message":"hello again"}' })
    expect(events.length).toBe(stops) // the serving app was not stopped
  } finally {
    console.error = original
  }
  edit(
    'src/controllers/greetings_controller.ts',
    'export const hello = () => json({ message: ',
    "export const hello = () => json({ message: 'fixed' })",
  )
  expect(await changed('/hello', '{"message":"hello again"}')).toEqual({ status: 200, body: '{"message":"fixed"}' })
})

it('holds requests that arrive during a swap until the new app has started, and reads edits the watcher has not reported yet', async () => {
  await quiet()
  const g = globalThis as { velaFixtureStartDelayMs?: number }
  g.velaFixtureStartDelayMs = 300
  // A busy machine can deliver the watcher's event after an explicit reload: hold the events back
  // so that the swap below cannot rely on Vite having invalidated the edited module.
  const watcher = server.vite.watcher
  const emit = watcher.emit
  const held: Parameters<typeof emit>[] = []
  watcher.emit = ((...args: Parameters<typeof emit>) => (held.push(args), true)) as typeof emit
  try {
    edit('src/controllers/greetings_controller.ts', "message: 'fixed'", "message: 'waited'")
    await new Promise((r) => setTimeout(r, 100))
    const swapped = server.devApp.reload('test')
    const startedAt = Date.now()
    const res = await get('/hello')
    expect(res).toEqual({ status: 200, body: '{"message":"waited"}' })
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250)
    expect(events.at(-1)).toBe('start')
    await swapped
  } finally {
    watcher.emit = emit
    for (const args of held) watcher.emit(...args)
    g.velaFixtureStartDelayMs = 0
  }
  await quiet()
})

it('upgrades WebSockets through the dev server, to the current app', async () => {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`)
  const reply = await new Promise<string>((resolve, reject) => {
    ws.once('open', () => ws.send('ping'))
    ws.once('message', (data) => resolve(String(data)))
    ws.once('error', reject)
  })
  ws.close()
  expect(reply).toBe('echo:ping')
  // A path without a ws route is refused over HTTP.
  const refused = new WebSocket(`${server.url.replace('http', 'ws')}/hello`)
  const status = await new Promise<number>((resolve) => {
    refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    refused.once('error', () => resolve(-1))
  })
  expect(status).not.toBe(101)
})

describe('what a swap re-evaluates, and import.meta.hot: the resources of replaced modules are disposed (fixture `hot`)', () => {
  interface Status {
    label: string
    generation: number
    lastDisposed: number | null
    port: number
  }
  interface FixtureState {
    log: string[]
    ticks: number[]
    ports: number[]
    failDispose?: 'throw' | 'hang'
    hangStop?: boolean
    hot?: { dispose(cb: () => void): void }
  }
  const g = globalThis as { velaHotFixture?: FixtureState }
  let hotDir = ''
  let hot: DevServer
  const state = () => g.velaHotFixture!
  const status = async (): Promise<Status> => (await fetch(`${hot.url}/status`)).json() as Promise<Status>
  const editHot = (file: string, from: string, to: string) => {
    const path = join(hotDir, 'src', file)
    const text = readFileSync(path, 'utf8')
    if (!text.includes(from)) throw new Error(`${file} has no ${from}`)
    writeFileSync(path, text.replace(from, to))
  }
  let revision = 1
  /** Edits listener.ts (a module the controller imports; fragile.ts imports it too). */
  const editListener = (extra = '') =>
    editHot('listener.ts', `export const revision = ${revision}`, `export const revision = ${++revision}${extra}`)
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
  /** Polls until `check` holds (the watcher-triggered swap is asynchronous). */
  const until = async (check: () => boolean | Promise<boolean>) => {
    const deadline = Date.now() + 5000
    while (!(await check()) && Date.now() < deadline) await sleep(25)
  }
  /** Runs `fn` once swaps are over, with watcher events held back so that no swap starts meanwhile. */
  const still = async <T>(fn: () => Promise<T>): Promise<T> => {
    await sleep(150)
    await hot.devApp.settled()
    const watcher = hot.vite.watcher
    const emit = watcher.emit
    const held: Parameters<typeof emit>[] = []
    watcher.emit = ((...args: Parameters<typeof emit>) => (held.push(args), true)) as typeof emit
    try {
      return await fn()
    } finally {
      watcher.emit = emit
      for (const args of held) watcher.emit(...args)
    }
  }
  /** What a TCP connection to `port` reads, or the connection error's code. */
  const knock = (port: number) =>
    new Promise<string>((resolve) => {
      let data = ''
      connect(port, '127.0.0.1')
        .on('data', (d) => (data += d))
        .on('end', () => resolve(data))
        .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
    })
  const ticksOf = (generations: number[]) => generations.map((n) => state().ticks[n])
  /** Whether the ticker of `generation` is still ticking. */
  const ticking = async (generation: number) => {
    const [before] = ticksOf([generation])
    await sleep(60)
    return ticksOf([generation])[0]! > before!
  }
  const capture = async (fn: () => Promise<void>): Promise<string> => {
    const errors: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => void errors.push(args)
    try {
      await fn()
    } finally {
      console.error = original
    }
    return errors.map((args) => args.map(String).join(' ')).join('\n')
  }
  /** Edits listener.ts and waits until the app answers with a new listener's port. */
  const swapListener = async (extra?: string) => {
    const before = await still(status)
    editListener(extra)
    await until(async () => (await status()).port !== before.port)
    await still(async () => {})
    return { before, now: await status() }
  }

  beforeAll(async () => {
    hotDir = mkdtempSync(join(tmpdir(), 'vela-hot-'))
    cpSync(fileURLToPath(new URL('../test/fixtures/hot', import.meta.url)), hotDir, { recursive: true })
    mkdirSync(join(hotDir, 'node_modules'))
    symlinkSync(repo, join(hotDir, 'node_modules/vela'), 'dir')
    hot = await startDevServer({
      root: hotDir,
      port: 0,
      plugins: [vela({ dev: { debounceMs: 20, disposeTimeoutMs: 300, stopTimeoutMs: 300, log: () => {} } })],
    })
  })
  afterAll(async () => {
    await hot?.close({ timeoutMs: 1000 })
    rmSync(hotDir, { recursive: true, force: true })
  })

  it('a controller edit re-evaluates the controller only: the modules it imports keep their state and resources, no hook runs', async () => {
    const first = await still(async () => {
      const s = await status()
      expect(s).toMatchObject({ label: 'one', generation: 1, lastDisposed: null })
      expect(await ticking(s.generation)).toBe(true)
      expect(await knock(s.port)).toBe('hot')
      return s
    })
    const log = [...state().log]
    editHot('controllers/status_controller.ts', "label = 'one'", "label = 'two'")
    await until(async () => (await status()).label === 'two')
    await still(async () => {
      // Same ticker evaluation (its module-scope counter), same listener, still running.
      expect(await status()).toEqual({ ...first, label: 'two' })
      expect(await ticking(first.generation)).toBe(true)
      expect(await knock(first.port)).toBe('hot')
      expect(state().log).toEqual(log)
    })
  })

  it('an edit to another module is a lifecycle swap: stop, then the dispose callbacks of it and its importers, then start; the modules it does not touch keep theirs', async () => {
    const { before, now } = await swapListener()
    expect(await knock(before.port)).toBe('ECONNREFUSED')
    expect(await knock(now.port)).toBe('hot')
    // The ticker is not imported by listener.ts: not re-evaluated, not disposed.
    expect(now).toMatchObject({ label: 'two', generation: before.generation, lastDisposed: null })
    expect(await ticking(now.generation)).toBe(true)
    expect(state().log.join(', ')).toMatch(/^start(, stop, dispose listener, start)+$/)
  })

  it('a swap re-evaluating a module hands it the data its previous evaluation stored; the old interval stops, the new one runs', async () => {
    const before = await still(status)
    editHot('ticker.ts', '// A module-scope resource', '// Edited. A module-scope resource')
    await until(async () => (await status()).generation !== before.generation)
    await still(async () => {
      const now = await status()
      expect(now.generation).toBe(before.generation + 1)
      expect(now.lastDisposed).toBe(before.generation)
      expect(now.port).toBe(before.port)
      expect(await ticking(before.generation)).toBe(false)
      expect(await ticking(now.generation)).toBe(true)
    })
  })

  it('a dispose callback that throws is logged; the others run and the swap completes', async () => {
    state().failDispose = 'throw'
    let swapped: Awaited<ReturnType<typeof swapListener>> | undefined
    const errors = await capture(async () => void (swapped = await swapListener()))
    state().failDispose = undefined
    expect(errors).toMatch(/dispose callback of .*fragile\.ts failed:.*fragile dispose failed/)
    // fragile.ts is disposed first (registered last): the listener's callback still ran after it.
    expect(await knock(swapped!.before.port)).toBe('ECONNREFUSED')
    expect(state().log.slice(-3)).toEqual(['stop', 'dispose listener', 'start'])
  })

  it('a dispose callback that never settles is given up after the timeout', async () => {
    state().failDispose = 'hang'
    let swapped: Awaited<ReturnType<typeof swapListener>> | undefined
    const errors = await capture(async () => void (swapped = await swapListener()))
    state().failDispose = undefined
    expect(errors).toMatch(/fragile\.ts did not settle within 300 ms/)
    expect(await knock(swapped!.before.port)).toBe('ECONNREFUSED')
    expect(await knock(swapped!.now.port)).toBe('hot')
  })

  it('a stop hook that never settles holds a swap for stopTimeoutMs at most', async () => {
    state().hangStop = true
    let swapped: Awaited<ReturnType<typeof swapListener>> | undefined
    const errors = await capture(async () => void (swapped = await swapListener()))
    state().hangStop = false
    expect(errors).toMatch(/stop hook did not settle within 300 ms; going on without it/)
    expect(await knock(swapped!.now.port)).toBe('hot')
    expect(state().log.slice(-3)).toEqual(['stop', 'dispose listener', 'start'])
  })

  it('a dispose callback registered after its evaluation was replaced runs at once', async () => {
    await still(async () => {
      const old = state().hot!
      let ran = 0
      old.dispose(() => void ran++)
      // reload() re-evaluates every module, the ticker included.
      await hot.devApp.reload('test')
      expect(ran).toBe(1)
      // From a late timer or request of the old code: its evaluation is gone, nothing would run it.
      old.dispose(() => void ran++)
      await sleep(20)
      expect(ran).toBe(2)
      // The serving evaluation's callbacks wait for its own replacement.
      state().hot!.dispose(() => void ran++)
      await sleep(20)
      expect(ran).toBe(2)
    })
  })

  it('a load that fails releases what its modules opened; the serving modules keep their resources; the fix swaps in', async () => {
    const END = "log.push('dispose listener')\n})"
    const BROKEN = "if (await port) throw new Error('broken listener')"
    const serving = await still(status)
    const opened = state().ports.length
    const errors = await capture(async () => {
      // listener.ts opens its server, registers its dispose callback, then throws.
      editHot('listener.ts', END, `${END}\n${BROKEN}`)
      await until(() => state().ports.length > opened)
      await still(async () => {})
    })
    expect(errors).toMatch(/src\/listener\.ts:\d+:\d+: broken listener/)
    // The failed evaluation's server had opened (its module ran before the throw) and is closed.
    expect(state().ports.length).toBeGreaterThan(opened)
    for (const port of state().ports.slice(opened)) expect(await knock(port)).toBe('ECONNREFUSED')
    // Still serving, `data` and resources as they were.
    expect(await status()).toEqual(serving)
    expect(await knock(serving.port)).toBe('hot')
    expect(await ticking(serving.generation)).toBe(true)
    editHot('listener.ts', `\n${BROKEN}`, '')
    await until(async () => (await status()).port !== serving.port)
    const now = await status()
    expect(now).toMatchObject({ label: serving.label, generation: serving.generation })
    expect(await knock(now.port)).toBe('hot')
    expect(await knock(serving.port)).toBe('ECONNREFUSED')
  })

  it('closing the dev server runs the stop hook (bounded) and disposes every module', async () => {
    const now = await still(status)
    state().hangStop = true
    const errors = await capture(() => hot.close({ timeoutMs: 1000 }))
    state().hangStop = false
    expect(errors).toMatch(/stop hook did not settle within 300 ms/)
    expect(state().log.at(-2)).toBe('stop')
    expect(await knock(now.port)).toBe('ECONNREFUSED')
    expect(await ticking(now.generation)).toBe(false)
  })
})

it('leaves import.meta.hot undefined in a build: the guarded code is dropped and the app runs without it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'vela-hot-build-'))
  try {
    const root = fileURLToPath(new URL('../test/fixtures/hot', import.meta.url))
    await build({
      root,
      configFile: false,
      plugins: [vela()],
      logLevel: 'silent',
      build: { outDir: out, emptyOutDir: true },
    })
    expect(readFileSync(join(out, 'index.mjs'), 'utf8')).not.toMatch(/import\.meta\.hot|__vite_ssr_import_meta__/)
    const server = await startBuilt(out)
    try {
      const res = await fetch(`${server.url}/status`)
      expect(await res.json()).toMatchObject({ label: 'one', generation: 0, lastDisposed: null })
    } finally {
      await server.stop()
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
