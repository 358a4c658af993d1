// Every core: the built server with VELA_WORKERS runs a primary and N workers under node:cluster.
// Real processes: test/fixtures/workers-app built once with vela/vite, then `node server/index.mjs`
// per case, on ports the system picks (PORT=0 and METRICS_PORT=0, read back from its start lines);
// the fixture's `/pid` says which process answered and its start/stop hooks print their role
// (START/STOP lines).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startClients } from '../../bench/soak-client.ts'
import type { Route } from '../../bench/soak-client.ts'
import vela from '../../vite-plugin/index.ts'
import type { ServerProcess } from '../support/built-server.ts'
import { getFresh, runBuiltServer, sumSeries } from '../support/built-server.ts'
import { listeningPort } from '../support/listening.ts'
import { until } from '../support/until.ts'
import { WsClient } from '../support/ws-client.ts'

const root = fileURLToPath(new URL('../fixtures/workers-app', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'vela-workers-'))
const running: ServerProcess[] = []
// Whatever a failed case left running (a primary's workers exit when its IPC channel closes).
afterAll(() => {
  for (const s of running) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL')
  rmSync(out, { recursive: true, force: true })
})

beforeAll(async () => {
  await build({
    root,
    configFile: false,
    plugins: [vela()],
    logLevel: 'silent',
    build: { outDir: join(out, 'server'), emptyOutDir: true },
  })
})

interface Started {
  readonly server: ServerProcess
  readonly port: number
  readonly metricsPort: number
  readonly primaryPid: number
  readonly workerPids: number[]
}

async function start(env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const server = runBuiltServer(out, { PORT: '0', METRICS_PORT: '0', VELA_WORKERS: '2', ...env })
  running.push(server)
  await server.waitFor(/listening on /)
  // The primary serves /metrics from its start hook, which runs before any worker listens.
  const port = listeningPort(server.output())!
  const metricsPort = Number(/^METRICS http:\/\/127\.0\.0\.1:(\d+)\/metrics$/m.exec(server.output())?.[1])
  const workerPids = [...server.output().matchAll(/^START worker \d+ (\d+)/gm)].map((m) => Number(m[1]))
  return { server, port, metricsPort, primaryPid: server.proc.pid!, workerPids }
}

const pidOf = async (port: number, timeoutMs?: number) =>
  (JSON.parse((await getFresh(port, '/pid', timeoutMs)).body) as { pid: number }).pid
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
/** Waits (bounded) until `check` holds, polling every 20 ms. */
const LOAD: Route[] = [
  { name: 'GET /pid', weight: 1, method: 'GET', path: () => '/pid' },
  { name: 'GET /slow', weight: 1, method: 'GET', path: () => '/slow?ms=15' },
]

describe('VELA_WORKERS=2: one port, two workers, one start before them', { timeout: 180_000 }, () => {
  it('serves on one port from two worker processes; the start hook ran in the primary before any worker', async () => {
    const s = await start()
    const lines = s.server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('START '))
    expect(lines[0]).toBe(`START primary 0 ${s.primaryPid} of 2`)
    expect(
      lines
        .slice(1)
        .map((l) => l.replace(/ \d+ \d+ /, ' _ _ '))
        .sort(),
    ).toEqual(['START worker _ _ of 2', 'START worker _ _ of 2'])
    // The address bound: every interface (IPv6 `::` where the machine has IPv6, else 0.0.0.0).
    expect(s.server.output()).toMatch(
      new RegExp(
        `^vela: workers \\(prod\\) listening on http://(\\[::\\]|0\\.0\\.0\\.0):${s.port} \\(all interfaces\\) with 2 workers$`,
        'm',
      ),
    )

    const pids = new Set<number>()
    for (let i = 0; i < 20; i++) pids.add(await pidOf(s.port))
    expect([...pids].sort()).toEqual([...s.workerPids].sort())
    expect(pids.has(s.primaryPid)).toBe(false)

    // One /metrics, on the primary: the sum of both workers' registries (recorded once each answer is sent).
    const scrape = async () =>
      sumSeries(
        await (await fetch(`http://127.0.0.1:${s.metricsPort}/metrics`)).text(),
        'http_server_request_duration_seconds_count',
      )
    await until('the 20 requests counted', async () => (await scrape()) >= 20, 15_000)
    expect(await scrape()).toBe(20)
    // The app's own OpenTelemetry counter, summed over both workers (each answered some of the 20).
    const text = await (await fetch(`http://127.0.0.1:${s.metricsPort}/metrics`)).text()
    expect(text).toContain('# TYPE app_pid_calls_total counter\n')
    expect(sumSeries(text, 'app_pid_calls_total')).toBe(20)
  })

  it('OpenMetrics on the primary: the sampled requests’ traces survive the sum as exemplars', async () => {
    // Spans printed to stdout by the console exporter; each request's sampled traceparent fixes its trace id.
    const s = await start({ OTEL_TRACES_EXPORTER: 'console' })
    const sent: string[] = []
    const pids = new Set<number>()
    for (let i = 0; i < 20; i++) {
      const traceId = (i + 1).toString(16).padStart(32, 'a')
      sent.push(traceId)
      const res = await fetch(`http://127.0.0.1:${s.port}/pid`, {
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      })
      pids.add(((await res.json()) as { pid: number }).pid)
    }
    expect([...pids].sort()).toEqual([...s.workerPids].sort())
    const metrics = `http://127.0.0.1:${s.metricsPort}/metrics`
    const openMetrics = async () =>
      fetch(metrics, {
        headers: { accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' },
      })
    await until(
      'the 20 requests counted',
      async () => sumSeries(await (await fetch(metrics)).text(), 'http_server_request_duration_seconds_count') >= 20,
      15_000,
    )
    const res = await openMetrics()
    expect(res.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8')
    const text = await res.text()
    expect(text.endsWith('\n# EOF\n')).toBe(true)
    const exemplars = [
      ...text.matchAll(
        /^http_server_request_duration_seconds_bucket\{[^}]*http_route="\/pid"[^}]*\} \d+ # \{trace_id="([0-9a-f]{32})",span_id="[0-9a-f]{16}"\} \S+ \S+$/gm,
      ),
    ].map((m) => m[1]!)
    expect(exemplars.length).toBeGreaterThan(0)
    for (const id of exemplars) expect(sent).toContain(id)
    // The plain text of the same sum has none.
    expect(await (await fetch(metrics)).text()).not.toContain('trace_id')
  })

  it('a worker killed with SIGKILL is replaced; the port keeps answering meanwhile', async () => {
    const s = await start()
    const [victim, survivor] = s.workerPids as [number, number]
    const answers: { at: number; pid?: number }[] = []
    let probing = true
    // Two probes one request after another, each waiting up to 2 s (on a busy 2-core machine a
    // healthy answer can take most of a second): a request left hanging by the kill holds one of them.
    const probeLoop = async () => {
      while (probing) answers.push({ at: Date.now(), pid: await pidOf(s.port, 2000).catch(() => undefined) })
    }
    const probe = Promise.all([probeLoop(), probeLoop()])
    await until('answers before the kill', () => answers.length >= 5, 15_000)
    const killedAt = Date.now()
    process.kill(victim, 'SIGKILL')
    await s.server.waitFor(
      new RegExp(`^\\[vela\\] worker \\d+ \\(pid ${victim}\\) was killed by SIGKILL; starting a new one$`, 'm'),
    )
    const isNew = (a: { pid?: number }) => a.pid !== undefined && a.pid !== victim && a.pid !== survivor
    await until('a new worker answering', () => answers.some(isNew), 30_000)
    probing = false
    await probe

    // Between the kill and the new worker's first answer, the survivor kept the port answering.
    const replacedAt = answers.find(isNew)!.at
    const meanwhile = answers.filter((a) => a.at > killedAt && a.at < replacedAt)
    expect(meanwhile.filter((a) => a.pid === survivor).length).toBeGreaterThan(0)
    // What SIGKILL can cost: the request the victim was serving, and a connection node's cluster
    // was handing to it at that instant (never answered: node keeps it, here until the probe's timeout).
    expect(answers.filter((a) => a.pid === undefined).length).toBeLessThanOrEqual(2)
    expect(alive(s.primaryPid)).toBe(true)
  })

  it('SIGTERM to the primary drains both workers under keep-alive load: no request lost, stop hooks run, exit 0', async () => {
    const s = await start()
    const load = startClients(s.port, 10, LOAD, 100_000)
    await until('load running', () => load.stats.requests >= 300, 15_000)
    s.server.proc.kill('SIGTERM')
    const exit = await Promise.race([s.server.exited, new Promise((r) => setTimeout(() => r('still running'), 60_000))])
    await Promise.race([load.done, new Promise((r) => setTimeout(r, 15_000))])
    await load.stop()

    expect(exit).toEqual({ code: 0, signal: null })
    expect(load.stats.lost).toEqual([])
    expect([...load.stats.failed.keys()].filter((k) => !k.startsWith('refused'))).toEqual([])
    const output = s.server.output()
    expect(output).toContain('[vela] SIGTERM: shutting down 2 workers')
    for (const pid of s.workerPids) expect(output).toContain(`STOP worker ${pid}`)
    expect(output).toContain(`STOP primary ${s.primaryPid}`)
    expect(output.trim().split('\n').at(-1)).toBe('[vela] shutdown complete')
    for (const pid of s.workerPids) expect(alive(pid)).toBe(false)
  })

  it('SIGTERM to one worker alone: it drains with no request lost and is replaced', async () => {
    const s = await start()
    const load = startClients(s.port, 10, LOAD, 100_000)
    await until('load running', () => load.stats.requests >= 200, 15_000)
    process.kill(s.workerPids[0]!, 'SIGTERM')
    await s.server.waitFor(
      new RegExp(`^\\[vela\\] worker \\d+ \\(pid ${s.workerPids[0]}\\) exited with code 0; starting a new one$`, 'm'),
    )
    await s.server.waitFor(/^START worker 3 /m)
    const before = load.stats.requests
    await until('load after the replacement', () => load.stats.requests >= before + 200, 15_000)
    await load.stop()

    expect(load.stats.lost).toEqual([])
    expect(load.stats.failed.size).toBe(0)
    expect(s.server.output()).toContain(`STOP worker ${s.workerPids[0]}`)
    expect(alive(s.primaryPid)).toBe(true)
  })
})

describe('VELA_WORKERS=2 with no broker: WebSocket topics through the primary', { timeout: 180_000 }, () => {
  interface Socket {
    readonly client: WsClient
    readonly pid: number
  }
  const open = async (port: number): Promise<Socket> => {
    const client = await WsClient.open(`ws://127.0.0.1:${port}/ws?sub=news`)
    const pid = Number(/^pid (\d+)$/.exec((await client.next()).text)?.[1])
    return { client, pid }
  }

  it('6 subscribers spread over both workers each get every message once, text and bytes, from either worker; peer.publish skips only the sender', async () => {
    const s = await start()
    // node's round-robin spreads the connections; open until 6 are held, on both workers.
    const sockets: Socket[] = []
    for (let i = 0; i < 40 && !(sockets.length === 6 && new Set(sockets.map((x) => x.pid)).size === 2); i++) {
      if (sockets.length === 6) await sockets.shift()!.client.close()
      sockets.push(await open(s.port))
    }
    try {
      expect(new Set(sockets.map((x) => x.pid))).toEqual(new Set(s.workerPids))
      for (const worker of s.workerPids) {
        // From one socket of this worker, so the messages and the sentinel keep their order.
        const from = sockets.find((x) => x.pid === worker)!
        from.client.send({ pubAll: 'news', text: `text from ${worker}` })
        from.client.send({ pubBytes: 'news', text: 'AB' })
        from.client.send({ pub: 'news', text: `others from ${worker}` })
        from.client.send({ pubAll: 'news', text: 'end' })
        for (const x of sockets) {
          const others = x === from ? [] : [`others from ${worker}`]
          expect(await x.client.until('end'), `socket on ${x.pid}, published on ${worker}`).toEqual([
            `text from ${worker}`,
            'binary:65,66',
            ...others,
          ])
        }
      }
    } finally {
      await Promise.all(sockets.map((x) => x.client.close()))
    }
  })

  it("a worker killed and replaced: the new worker joins the relay as it starts; its subscribers get the survivor's messages, the dead one is skipped", async () => {
    const s = await start()
    const [victim, survivor] = s.workerPids as [number, number]
    process.kill(victim, 'SIGKILL')
    await s.server.waitFor(/^START worker 3 /m)
    const sockets: Socket[] = []
    try {
      // Until one socket is on the survivor and one on the replacement (it listens once joined).
      for (let i = 0; i < 40 && new Set(sockets.map((x) => x.pid)).size < 2; i++) sockets.push(await open(s.port))
      const from = sockets.find((x) => x.pid === survivor)
      const replacement = sockets.find((x) => x.pid !== survivor)
      expect(replacement?.pid).not.toBe(victim)
      if (!from || !replacement) throw new Error(`sockets only on ${sockets.map((x) => x.pid).join(', ')}`)
      from.client.send({ pubAll: 'news', text: 'to the newcomer' })
      from.client.send({ pubAll: 'news', text: 'end' })
      expect(await replacement.client.until('end')).toEqual(['to the newcomer'])
      // No write to the dead worker failed (the primary forgot it), nothing was dropped.
      expect(s.server.output()).not.toContain(`(pid ${victim}): `)
      expect(s.server.output()).not.toContain('backed up')
    } finally {
      await Promise.all(sockets.map((x) => x.client.close()))
    }
  })
})

describe.concurrent('VELA_WORKERS values and start failures', { timeout: 180_000 }, () => {
  it('unset: one process, no cluster (the start hook sees no role); 1 is the same', async () => {
    for (const workers of ['', '1']) {
      const s = await start({ VELA_WORKERS: workers })
      expect(s.server.output()).toContain(`START single 0 ${s.primaryPid} of 1`)
      expect(s.server.output()).toMatch(/^vela: workers \(prod\) listening on http:\/\/\S+:\d+ \(all interfaces\)$/m)
      expect(await pidOf(s.port)).toBe(s.primaryPid)
      s.server.proc.kill('SIGTERM')
      expect(await s.server.exited).toEqual({ code: 0, signal: null })
    }
  })

  it('an invalid VELA_WORKERS is one line naming it, exit 1, before the app starts', async () => {
    const server = runBuiltServer(out, { PORT: '0', VELA_WORKERS: 'many' })
    running.push(server)
    expect(await server.exited).toEqual({ code: 1, signal: null })
    expect(server.output()).toBe('vela: VELA_WORKERS must be a whole number from 1 to 9999 or "auto", not "many"\n')
  })

  it('workers that keep failing to start stop the server with exit 1 instead of being forked forever', async () => {
    const server = runBuiltServer(out, {
      PORT: '0',
      METRICS_PORT: '0',
      VELA_WORKERS: '2',
      FAIL_WORKER_START: '1',
    })
    running.push(server)
    expect(await server.exited).toEqual({ code: 1, signal: null })
    const output = server.output()
    expect(
      output.match(/^vela: workers \(prod\) worker \d+ could not start: this worker cannot start$/gm)?.length,
    ).toBeGreaterThanOrEqual(3)
    expect(output).toMatch(/before it listened; starting a new one in 100 ms$/m)
    expect(output).toMatch(
      /^vela: workers \(prod\): worker \d+ \(pid \d+\) exited with code 1 before it listened; workers keep failing to start \(3 in 10 s\), stopping$/m,
    )
    expect(output).not.toContain('listening on')
    expect(output).toContain('STOP primary')
  })
})
