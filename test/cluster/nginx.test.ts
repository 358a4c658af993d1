// Several instances behind a load balancer: nginx, running deploy/nginx.conf itself, in front of
// three instances of the built playground (`node dist/server/index.mjs`), started together on one
// fresh PostgreSQL database, one Redis and one session secret, as a deployment runs them. Real
// processes and sockets; the cases share the instances and run in order (the last two stop one
// instance each: SIGTERM, then SIGKILL).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { hashPassword } from '../../playground/src/auth/passwords.ts'
import type { Instance, Release } from '../support/built-playground.ts'
import { releasePlayground, startInstance } from '../support/built-playground.ts'
import { WsClient } from '../support/ws-client.ts'
import { FormClient } from '../support/form-client.ts'
import { call, randomLoopbackAddress } from '../support/http-client.ts'
import type { Nginx } from '../support/nginx.ts'
import { nginxAvailable, startNginx } from '../support/nginx.ts'
import { REDIS_URL, freshPostgresDatabase, serviceAvailable } from '../support/services.ts'

const deployFile = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../deploy/${name}`, import.meta.url)), 'utf8')
const MIGRATIONS = readdirSync(fileURLToPath(new URL('../../playground/src/migrations', import.meta.url)))
  .filter((f) => /^m\d+_\w+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
const IDS = ['a', 'b', 'c'] as const
const LOGIN_LIMIT = 5
const PASSWORD = 'correct horse battery staple'

/** One request of a load: when it started and ended (performance.now()), and its status or error. */
interface Done {
  readonly start: number
  readonly end: number
  readonly what: string
  readonly status: number | string
  readonly id?: number
  readonly name?: string
}

const ready = (await serviceAvailable('postgres')) && (await serviceAvailable('redis')) && nginxAvailable()

describe.skipIf(!ready)('nginx in front of three instances of the built playground', () => {
  let release: Release | undefined
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined
  const instances: Instance[] = []
  let nginx: Nginx
  let sql: pg.Client

  beforeAll(async () => {
    release = releasePlayground('cluster')
    db = await freshPostgresDatabase('vela_cluster')
    const shared = {
      DATABASE_URL: db.url,
      VELA_SESSION_SECRET: randomBytes(32).toString('base64url'),
      REDIS_URL,
      // nginx connects from 127.0.0.1: the instances read the client's address from it only.
      VELA_TRUST_PROXY: '127.0.0.1',
      LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
    }
    // All three started before any is up: their start hooks migrate the empty database at once.
    for (const id of IDS) instances.push(await startInstance(release, { ...shared, INSTANCE_ID: id }))
    await Promise.all(instances.map((i) => i.listening()))
    nginx = await startNginx(instances.map((i) => i.port))
    sql = new pg.Client({ connectionString: db.url })
    await sql.connect()
    // Production has no demo account: a user with a password, as an admin would create one.
    await sql.query(
      'INSERT INTO users (name, email, password_hash, inserted_at, updated_at) VALUES ($1, $2, $3, now(), now())',
      ['alice', 'alice@example.com', await hashPassword(PASSWORD)],
    )
  })

  afterAll(async () => {
    await sql?.end()
    await nginx?.stop()
    await Promise.all(instances.map((i) => i.stop()))
    await db?.drop()
    release?.remove()
  })

  const through = (path: string) => `${nginx.url}${path}`
  const instanceOf = async (url: string) => ((await (await fetch(url)).json()) as { instance: string }).instance

  it('requests through nginx are spread over all three instances', async () => {
    const answered = new Map<string, number>()
    for (let i = 0; i < 30; i++) {
      const id = await instanceOf(through('/api/info'))
      answered.set(id, (answered.get(id) ?? 0) + 1)
    }
    expect([...answered.keys()].sort()).toEqual([...IDS])
    // nginx's round robin over one shared upstream zone: about a third each.
    for (const id of IDS) expect(answered.get(id), `requests instance ${id} answered`).toBeGreaterThanOrEqual(8)
    // Each instance's own port answers as itself (the pinning the next cases rely on).
    expect(await Promise.all(instances.map((i) => instanceOf(`${i.url}/api/info`)))).toEqual([...IDS])
  })

  it('a login made through nginx is valid on every instance, and one made on an instance through nginx', async () => {
    // The login form and the login POST are two requests: round robin gives them two instances.
    const viaNginx = new FormClient(nginx.url)
    const login = await viaNginx.login('alice', PASSWORD)
    expect(login.status).toBe(302)
    expect(login.headers.get('location')).toBe('/notes')
    for (const instance of instances) {
      const pinned = new FormClient(instance.url)
      for (const [k, v] of viaNginx.cookies) pinned.cookies.set(k, v)
      expect(await pinned.page('/notes'), `the notes page on instance ${instance.port}`).toContain('alice')
      // Without the cookie, the same page sends the visitor to the login form.
      expect((await new FormClient(instance.url).request('/notes')).headers.get('location')).toBe('/login')
    }
    const onB = new FormClient(instances[1]!.url)
    expect((await onB.login('alice', PASSWORD)).headers.get('location')).toBe('/notes')
    const viaNginxAgain = new FormClient(nginx.url)
    for (const [k, v] of onB.cookies) viaNginxAgain.cookies.set(k, v)
    for (let i = 0; i < 3; i++) expect(await viaNginxAgain.page('/notes')).toContain('alice')
  })

  it('the login rate limit is counted once across the instances (Redis), per client address nginx forwards', async () => {
    const client = randomLoopbackAddress()
    const attempt = (url: string, from: string, headers: Record<string, string> = {}) =>
      call(url, {
        method: 'POST',
        from,
        body: 'username=alice&password=wrong',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      })
    // LOGIN_LIMIT attempts through nginx land on all three instances in turn; one counter.
    const remaining: string[] = []
    for (let i = 0; i < LOGIN_LIMIT; i++) {
      const res = await attempt(through('/'), client)
      expect(res.status).not.toBe(429)
      remaining.push(String(res.headers['ratelimit-remaining']))
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    // Over the limit: through nginx, and on each instance directly (the client's own address).
    expect((await attempt(through('/'), client)).status).toBe(429)
    for (const instance of instances)
      expect((await attempt(`${instance.url}/`, client)).status, `instance ${instance.port}`).toBe(429)
    // Writing another address into X-Forwarded-For does not help: nginx appends the real one.
    expect((await attempt(through('/'), client, { 'x-forwarded-for': randomLoopbackAddress() })).status).toBe(429)
    // Another client has its own limit.
    const other = await attempt(through('/'), randomLoopbackAddress())
    expect(other.status).not.toBe(429)
    expect(other.headers['ratelimit-remaining']).toBe(String(LOGIN_LIMIT - 1))
  })

  it('three instances starting together applied each migration once', async () => {
    const { rows } = await sql.query<{ version: string; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    )
    expect(rows.map((r) => `m${r.version}_${r.name}`)).toEqual(MIGRATIONS)
    // Each migration in exactly one instance's log; every instance started.
    const lines = instances.flatMap((i) =>
      i
        .output()
        .split('\n')
        .filter((l) => l.startsWith('playground: migrated ')),
    )
    expect(lines.sort()).toEqual(MIGRATIONS.map((m) => `playground: migrated ${m}`))
    for (const i of instances) expect(i.output()).toContain('vela: playground (prod) listening on')
  })

  it('WebSocket upgrades pass through nginx (Upgrade and Connection forwarded) to every instance', async () => {
    const echo = () =>
      new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(`${nginx.url.replace('http', 'ws')}/ws`)
        const timer = setTimeout(() => (ws.terminate(), reject(new Error('no echo within 5 s'))), 5000)
        ws.once('open', () => ws.send('hello'))
        ws.once('message', (data) => {
          clearTimeout(timer)
          ws.close()
          resolve(String(data))
        })
        ws.once('error', reject)
      })
    // Three connections: one per instance, by the round robin.
    expect(await Promise.all([echo(), echo(), echo()])).toEqual(['Echo: hello', 'Echo: hello', 'Echo: hello'])
  })

  // Waits for WebSocket topics (peer.subscribe / publish over Redis pub/sub) on main and a topic
  // route in the playground using them with REDIS_URL. The case then: one client per instance, each
  // on its instance's own port, subscribes; a message one of them sends is published on its
  // instance and reaches the clients on all three.
  it('a WebSocket message published on one instance reaches clients on all three, once each (rooms over Redis pub/sub)', async () => {
    const room = (i: Instance) => `${i.url.replace('http', 'ws')}/ws/rooms/lobby`
    const receivers = await Promise.all(instances.map((i) => WsClient.open(room(i), 'joined lobby')))
    const sender = await WsClient.open(room(instances[0]!), 'joined lobby')
    try {
      // Each instance is subscribed to Redis before it reports ready; this only waits (bounded)
      // until all three hear, so that the counted message below is checked on its own.
      for (let n = 0; ; n++) {
        sender.send(`warm ${n}`)
        const heard = await Promise.all(
          receivers.map((c) =>
            c.next(300).then(
              () => true,
              () => false,
            ),
          ),
        )
        if (heard.every(Boolean)) break
        if (n === 30) throw new Error('the instances never all received a room message')
      }
      sender.send('hello from a')
      sender.send('end')
      for (const c of receivers)
        expect((await c.until('end')).filter((t) => !t.startsWith('warm '))).toEqual(['hello from a'])
    } finally {
      for (const c of [...receivers, sender]) await c.close()
    }
  })

  it('the deployment examples probe what the server answers: the Dockerfile HEALTHCHECK, the Kubernetes probes', async () => {
    const dockerfile = deployFile('Dockerfile')
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/server\/index\.mjs"\]$/m) // what the instances here run
    const healthcheck = JSON.parse(/^\s*CMD (\[.*\])$/m.exec(dockerfile.split('HEALTHCHECK')[1]!)![1]!) as string[]
    const probe = (port: number) =>
      spawnSync(process.execPath, healthcheck.slice(1), {
        env: { ...process.env, PORT: String(port) },
        timeout: 10_000,
      }).status
    expect(healthcheck[0]).toBe('node')
    expect(probe(instances[0]!.port)).toBe(0)
    expect(probe(nginx.port)).toBe(0)
    const closed = await new Promise<number>((resolve) => {
      const s = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number }
        s.close(() => resolve(port))
      })
    })
    expect(probe(closed)).toBe(1)
    const manifest = deployFile('kubernetes.yaml')
    const paths = [...manifest.matchAll(/httpGet: \{ path: (\S+), port: http \}/g)].map((m) => m[1]!)
    expect(paths.length).toBe(3) // startup, liveness, readiness
    for (const path of paths)
      for (const i of instances) expect((await call(`${i.url}${path}`)).status, `${path} on ${i.port}`).toBe(200)
    expect(manifest).toMatch(/containerPort: 8080/)
  })

  it('the instances logged nothing but their start-up lines', () => {
    for (const i of instances) {
      const lines = i.output().trim().split('\n')
      expect(
        lines.filter(
          (l) =>
            !/^vela: playground \(prod\) listening on |^playground: metrics on http:\/\/127\.0\.0\.1:\d+\/metrics$|^playground: migrated m\d+_\w+$/.test(
              l,
            ),
        ),
      ).toEqual([])
    }
    expect(nginx.errors()).toBe('')
  })

  /** 8 keep-alive clients through nginx: creating products, reading them, probing /heartbeat. */
  function loadThroughNginx() {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
    const done: Done[] = []
    const created: number[] = []
    let stopAt = Infinity
    let n = 0
    async function client() {
      while (performance.now() < stopAt && done.length < 20_000) {
        const start = performance.now()
        const k = n++
        const kind = k % 3
        try {
          if (kind === 0) {
            const name = `cluster ${k} ${randomBytes(3).toString('hex')}`
            const res = await call(through('/api/products'), { agent, body: { name, price: k } })
            const id = res.status === 201 ? (JSON.parse(res.body) as { id: number }).id : undefined
            if (id !== undefined) created.push(id)
            done.push({ start, end: performance.now(), what: 'POST /api/products', status: res.status, id, name })
          } else {
            const path = kind === 1 && created.length ? `/api/products/${created[k % created.length]}` : '/heartbeat'
            const res = await call(through(path), { agent })
            done.push({ start, end: performance.now(), what: `GET ${path.replace(/\d+$/, ':id')}`, status: res.status })
          }
        } catch (err) {
          done.push({
            start,
            end: performance.now(),
            what: kind === 0 ? 'POST /api/products' : 'GET',
            status: (err as Error).message,
          })
        }
      }
    }
    const running = Promise.all(Array.from({ length: 8 }, client))
    return {
      done,
      /** Resolves once `count` requests have been answered. */
      async answered(count: number) {
        while (done.length < count) await new Promise((r) => setTimeout(r, 10))
      },
      /** Stops `ms` from now; resolves when every client has finished its last request. */
      async stopIn(ms: number) {
        stopAt = performance.now() + ms
        await running
        agent.destroy()
      },
    }
  }

  /** No lost write: every 201 is a row, with the name it was given. */
  async function expectStored(done: readonly Done[]) {
    const writes = done.filter((d) => d.status === 201)
    const { rows } = await sql.query<{ id: number; name: string }>(
      'SELECT id::int AS id, name FROM products WHERE id = ANY($1)',
      [writes.map((d) => d.id)],
    )
    const stored = new Map(rows.map((r) => [r.id, r.name]))
    for (const w of writes) expect(stored.get(w.id!), `product ${w.id}`).toBe(w.name)
    return writes.length
  }

  const ok = (d: Done) => typeof d.status === 'number' && d.status < 400

  it('one instance stopped with SIGTERM mid-load (a deploy): not one failed request, no lost write, exit 0', async () => {
    const load = loadThroughNginx()
    await load.answered(300)
    const victim = instances[1]!
    victim.kill('SIGTERM')
    // Vela's shutdown answers what was sent; nginx retries the refused connections elsewhere.
    const { code } = await victim.exited
    await load.stopIn(1000)
    expect(code).toBe(0)
    expect(load.done.filter((d) => !ok(d))).toEqual([])
    const writes = await expectStored(load.done)
    console.log(`[cluster] SIGTERM mid-load: ${load.done.length} requests, all answered; ${writes} 201s all stored`)
  })

  it('one instance killed mid-load: no failed request once nginx has marked it down, and no lost write', async () => {
    const load = loadThroughNginx()
    await load.answered(300)
    const victim = instances[2]!
    const killedAt = performance.now()
    victim.kill('SIGKILL')
    await victim.exited
    const goneAt = performance.now()
    // Long enough for every nginx worker to have met the dead instance, and for fail_timeout (5 s)
    // to let one request probe it again.
    await load.stopIn(6000)

    const failed = load.done.filter((d) => !ok(d))
    const after = load.done.filter((d) => d.start >= goneAt)
    expect(after.length).toBeGreaterThan(300)
    // Every request sent after the instance was gone succeeded: nginx retried the refused
    // connections on the others and then kept it out of the rotation.
    expect(after.filter((d) => !ok(d))).toEqual([])
    // The only failures, if any: requests the instance had in hand when it was killed (nginx
    // does not resend a POST it had passed on: the instance may have written it).
    for (const f of failed) expect(f.start < goneAt && f.end >= killedAt, JSON.stringify(f)).toBe(true)
    expect(nginx.errors()).toContain(`127.0.0.1:${victim.port}`)
    const writes = await expectStored(load.done)
    console.log(
      `[cluster] kill mid-load: ${load.done.length} requests, ${after.length} after the kill (all answered), ${failed.length} in flight at the kill failed (${failed.map((f) => `${f.what} ${f.status}`).join(', ') || 'none'}), ${writes} 201s all stored`,
    )
  })
})
