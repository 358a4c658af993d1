// Path traversal: every spelling below is answered 404 (or 400 when the percent-encoding is not
// valid UTF-8, refused at routing) and no byte of a file outside the served directory comes back.
// Over real HTTP the targets go out byte for byte on a raw socket; in-process they go through
// `new URL`, which normalises some of them first.
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { rawRequest } from '../../test/support/raw-http.ts'
import { inject } from '../testing/index.ts'
import type { RouteGroup } from '../contracts/routes.ts'
import { staticDir } from './static-dir.ts'

const base = mkdtempSync(join(tmpdir(), 'vela-traversal-'))
const assets = join(base, 'assets')
mkdirSync(join(assets, 'sub'), { recursive: true })
mkdirSync(join(assets, 'trap'))
mkdirSync(join(base, 'assets-evil'))
const SECRET = `TOP-SECRET-${process.pid}-${Date.now()}`
const EVIL = `EVIL-SIBLING-${process.pid}`
const DOTENV = `DOTENV-${process.pid}`
writeFileSync(join(base, 'secret.txt'), SECRET)
writeFileSync(join(base, 'assets-evil', 'secret.txt'), EVIL)
writeFileSync(join(assets, '.env'), DOTENV)
writeFileSync(join(assets, 'index.html'), '<h1>public</h1>')
writeFileSync(join(assets, 'sub', 'page.txt'), 'page')
symlinkSync(join(base, 'secret.txt'), join(assets, 'link-out'))
symlinkSync(base, join(assets, 'dir-out'))
symlinkSync(join(base, 'secret.txt'), join(assets, 'trap', 'index.html'))
const passwd = (() => {
  try {
    return readFileSync('/etc/passwd', 'utf8').split('\n')[0]!
  } catch {
    return 'root:x:0:0'
  }
})()
const forbidden = [SECRET, EVIL, DOTENV, passwd]

// [request target, expected status]
const corpus: [string, number][] = [
  ['/docs/../secret.txt', 404],
  ['/docs/..%2fsecret.txt', 404],
  ['/docs/..%2Fsecret.txt', 404],
  ['/docs/%2e%2e/secret.txt', 404],
  ['/docs/%2E%2E/secret.txt', 404],
  ['/docs/.%2e/secret.txt', 404],
  ['/docs/%2e./secret.txt', 404],
  ['/docs/%2e%2e%2fsecret.txt', 404],
  ['/docs/%252e%252e/secret.txt', 404],
  ['/docs/%252e%252e%252fsecret.txt', 404],
  ['/docs/..%255csecret.txt', 404],
  ['/docs/..\\secret.txt', 404],
  ['/docs/..%5csecret.txt', 404],
  ['/docs/%5c..%5csecret.txt', 404],
  ['/docs/%2e%2e%5c%2e%2e%5csecret.txt', 404],
  ['/docs/sub\\..\\..\\secret.txt', 404],
  ['/docs/secret.txt%00.html', 404],
  ['/docs/..%00/secret.txt', 404],
  ['/docs/%00../secret.txt', 404],
  ['/docs/%c0%ae%c0%ae/secret.txt', 400],
  ['/docs/%c0%ae%c0%ae%c0%afsecret.txt', 400],
  ['/docs/%e0%80%ae%e0%80%ae/secret.txt', 400],
  ['/docs/..%c0%afsecret.txt', 400],
  ['/docs/%u002e%u002e/secret.txt', 400],
  ['/docs//etc/passwd', 404],
  ['/docs/%2fetc%2fpasswd', 404],
  ['/docs/%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd', 404],
  ['/docs/sub/../../secret.txt', 404],
  ['/docs/sub/%2e%2e/%2e%2e/secret.txt', 404],
  ['/docs/sub%2f..%2f..%2fsecret.txt', 404],
  ['/docs/..;/secret.txt', 404],
  ['/docs/....//secret.txt', 404],
  ['/docs/../assets-evil/secret.txt', 404],
  ['/docs/..%2fassets-evil%2fsecret.txt', 404],
  ['/docs/link-out', 404],
  ['/docs/dir-out/secret.txt', 404],
  ['/docs/dir-out/assets-evil/secret.txt', 404],
  ['/docs/trap/', 404],
  ['/docs/trap', 404],
  ['/docs/.env', 404],
  ['/docs/%2eenv', 404],
  ['/docs/sub/../.env', 404],
  ['http://localhost/docs/../secret.txt', 404],
  ['http://localhost/docs/%2e%2e%2fsecret.txt', 404],
]

const group: RouteGroup = { prefix: '', security: false, routes: [['/docs/[...]', staticDir(assets)]] }

function assertSafe(target: string, status: number, body: string, expected: number) {
  for (const secret of forbidden) expect(body.includes(secret), `${target} leaked ${secret}`).toBe(false)
  expect(status, target).toBe(expected)
}

describeModes('staticDir path traversal', { bootstrapApplication: 'traversal', routes: { static: group } }, (t) => {
  it(`the corpus (${corpus.length} spellings) never leaves the directory`, async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20)
    if (t.mode === 'http') {
      const { port } = new URL((await t.request('/docs/')).url)
      for (const [target, expected] of corpus) {
        const res = await rawRequest(
          Number(port),
          `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        )
        assertSafe(target, res.status, res.raw, expected)
      }
    } else {
      for (const [target] of corpus) {
        // `new URL` resolves `..` and rejects nothing here: only containment is asserted in-process.
        const res = await inject(t.app, target.startsWith('http') ? target : `http://localhost${target}`)
        const body = await res.text()
        for (const secret of forbidden) expect(body.includes(secret), `${target} leaked ${secret}`).toBe(false)
        expect([400, 404], target).toContain(res.status)
      }
    }
  })
  it('the directory itself is still served (the corpus is not failing for a broken route)', async () => {
    expect(await (await t.request('/docs/')).text()).toBe('<h1>public</h1>')
    expect(await (await t.request('/docs/sub/page.txt')).text()).toBe('page')
  })
})
