// Static files: staticDir behind `/docs/[...]`, in-process and over real HTTP: content types,
// ETag / Last-Modified with 304, HEAD, index.html, 404, 405.
import { mkdtempSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { status } from '../replies.ts'
import type { RouteGroup } from '../contracts/routes.ts'
import { staticDir } from './static-dir.ts'
import { strictLog } from '../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const base = mkdtempSync(join(tmpdir(), 'vela-static-'))
const assets = join(base, 'assets')
mkdirSync(join(assets, 'sub'), { recursive: true })
mkdirSync(join(assets, 'empty'))
const big = 'x'.repeat(200 * 1024)
const files: Record<string, string> = {
  'index.html': '<h1>docs</h1>',
  'app.js': 'console.log(1)',
  'style.css': 'body{}',
  'openapi.json': '{"openapi":"3.0.3"}',
  'logo.png': '\x89PNG',
  'notes.unknownext': 'bytes',
  'big.txt': big,
  'sub/index.html': '<h1>sub</h1>',
  'sub/page.txt': 'page',
}
for (const [name, text] of Object.entries(files)) writeFileSync(join(assets, name), text)
const mtime = new Date('2024-05-01T12:00:00Z')
utimesSync(join(assets, 'app.js'), mtime, mtime)

const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['/docs/[...]', staticDir(assets)],
    ['/cached/[...]', staticDir(assets, { maxAge: 3600, index: false })],
    ['/gone/[...]', staticDir(join(base, 'does-not-exist'))],
    [404, () => status(404, 'custom not found', { headers: { 'content-type': 'text/plain' } })],
  ],
}

describeModes('staticDir', { bootstrapApplication: 'static', routes: { static: group } }, (t) => {
  it('serves files with their content type and length', async () => {
    const cases: [string, string, string][] = [
      ['/docs/app.js', 'text/javascript; charset=utf-8', files['app.js']!],
      ['/docs/style.css', 'text/css; charset=utf-8', files['style.css']!],
      ['/docs/openapi.json', 'application/json; charset=utf-8', files['openapi.json']!],
      ['/docs/logo.png', 'image/png', files['logo.png']!],
      ['/docs/notes.unknownext', 'application/octet-stream', 'bytes'],
      ['/docs/sub/page.txt', 'text/plain; charset=utf-8', 'page'],
    ]
    for (const [path, type, body] of cases) {
      const res = await t.request(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toBe(type)
      expect(res.headers.get('content-length'), path).toBe(String(Buffer.byteLength(body)))
      expect(await res.text(), path).toBe(body)
    }
  })
  it('streams a large file whole', async () => {
    const res = await t.request('/docs/big.txt')
    expect(res.headers.get('content-length')).toBe(String(big.length))
    expect(await res.text()).toBe(big)
  })
  it('index.html for a directory, the route itself included', async () => {
    for (const path of ['/docs', '/docs/', '/docs/index.html'])
      expect(await (await t.request(path)).text(), path).toBe('<h1>docs</h1>')
    for (const path of ['/docs/sub', '/docs/sub/'])
      expect(await (await t.request(path)).text(), path).toBe('<h1>sub</h1>')
    expect((await t.request('/docs/empty/')).status).toBe(404)
    expect((await t.request('/cached/')).status).toBe(404)
  })
  it('ETag and Last-Modified; If-None-Match and If-Modified-Since give 304 without a body', async () => {
    const res = await t.request('/docs/app.js')
    const etag = res.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect(res.headers.get('last-modified')).toBe(mtime.toUTCString())
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const r = await t.request({ url: '/docs/app.js', headers: { 'if-none-match': inm } })
      expect(r.status, inm).toBe(304)
      expect(r.headers.get('etag')).toBe(etag)
      expect(await r.text()).toBe('')
    }
    const changed = await t.request({
      url: '/docs/app.js',
      headers: { 'if-none-match': '"other"', 'if-modified-since': mtime.toUTCString() },
    })
    expect(changed.status).toBe(200) // If-None-Match wins
    expect(
      (await t.request({ url: '/docs/app.js', headers: { 'if-modified-since': mtime.toUTCString() } })).status,
    ).toBe(304)
    const older = new Date(mtime.getTime() - 1000).toUTCString()
    expect((await t.request({ url: '/docs/app.js', headers: { 'if-modified-since': older } })).status).toBe(200)
    expect((await t.request({ url: '/docs/app.js', headers: { 'if-modified-since': 'garbage' } })).status).toBe(200)
  })
  it('HEAD: headers of the GET, no body', async () => {
    const res = await t.request({ method: 'HEAD', url: '/docs/style.css' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe('6')
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await res.text()).toBe('')
  })
  it('missing files are the group 404; other methods a 405 with allow', async () => {
    const res = await t.request('/docs/missing.js')
    expect(res.status).toBe(404)
    expect(await res.text()).toBe('custom not found')
    expect((await t.request('/gone/x')).status).toBe(404)
    const post = await t.request({ method: 'POST', url: '/docs/app.js', body: 'x' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })
  it('maxAge sets cache-control', async () => {
    expect((await t.request('/cached/app.js')).headers.get('cache-control')).toBe('public, max-age=3600')
    expect((await t.request('/docs/app.js')).headers.get('cache-control')).toBeNull()
  })
})

it('a file swapped for a symlink leading out of the directory is refused once its real path is rechecked (1 s)', async () => {
  const { rmSync, symlinkSync } = await import('node:fs')
  const { createApp } = await import('../app/create-app.ts')
  const { inject } = await import('../testing/index.ts')
  const dir = mkdtempSync(join(tmpdir(), 'vela-static-swap-'))
  mkdirSync(join(dir, 'public'))
  writeFileSync(join(dir, 'secret.txt'), 'TOP SECRET')
  writeFileSync(join(dir, 'public', 'a.txt'), 'public a')
  const app = createApp(
    {
      bootstrapApplication: 'swap',
      routes: { r: { prefix: '', security: false, routes: [['/files/[...]', staticDir(join(dir, 'public'))]] } },
    },
    { env: {}, log: logs.log },
  )
  expect(await (await inject(app, '/files/a.txt')).text()).toBe('public a')
  rmSync(join(dir, 'public', 'a.txt'))
  symlinkSync(join(dir, 'secret.txt'), join(dir, 'public', 'a.txt'))
  await new Promise((r) => setTimeout(r, 1100))
  const res = await inject(app, '/files/a.txt')
  expect(res.status).toBe(404)
  expect(await res.text()).not.toContain('TOP SECRET')
})

it('a relative directory resolves against the root of each app serving the route (default: the working directory)', async () => {
  const { readFileSync } = await import('node:fs')
  const { createApp } = await import('../app/create-app.ts')
  const { inject } = await import('../testing/index.ts')
  // One route definition, as a route module evaluated once, served by apps with different roots.
  const routes = {
    r: {
      prefix: '',
      security: false as const,
      routes: [
        ['/docs/[...]', staticDir('priv/assets')],
        ['/src/[...]', staticDir('server/static')],
      ] as const,
    },
  }
  const roots = ['one', 'two'].map((name) => {
    const root = mkdtempSync(join(tmpdir(), `vela-static-root-${name}-`))
    mkdirSync(join(root, 'priv/assets'), { recursive: true })
    writeFileSync(join(root, 'priv/assets/who.txt'), `app ${name}`)
    return root
  })
  const [one, two] = roots.map((root) => createApp({ bootstrapApplication: 'rooted', routes }, { env: {}, root }))
  expect(await (await inject(one!, '/docs/who.txt')).text()).toBe('app one')
  expect(await (await inject(two!, '/docs/who.txt')).text()).toBe('app two')
  // No root given: the working directory (the repository while testing).
  const plain = createApp({ bootstrapApplication: 'plain', routes }, { env: {} })
  expect(await (await inject(plain, '/src/mime.ts')).text()).toBe(readFileSync('server/static/mime.ts', 'utf8'))
  expect((await inject(plain, '/docs/who.txt')).status).toBe(404)
})
