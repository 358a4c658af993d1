// The documentation site, built as `npm run docs:build` builds it (reference pages generated from
// the entry points, then VitePress, which fails the build on a dead link), once for every case
// here. Then: every link inside the built site leads to a page or file of it, and every `#anchor`
// to a heading that exists; every export of every entry point is on its reference page; the code
// blocks marked ```` ```ts check ```` compile against the package's types (CONTRIBUTING.md); and
// headless Chromium (Debian's `chromium`, skipped without it unless CI) shows the home page and a
// guide page, screenshots in test-results/screenshots/docs-*.png.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromiumAvailable, launchChromium } from './support/chromium.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import { writeCheckApps } from './support/docs-code-blocks.ts'
import { brokenLinks } from './support/site-links.ts'
import { serveStatic } from './support/static-server.ts'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DOCS = join(ROOT, 'docs')
const DIST = join(DOCS, '.vitepress/dist')
const SCREENSHOTS = join(ROOT, 'test-results/screenshots')
// A build takes about a minute on a busy 2-core machine; these bounds are for a stuck one.
const BUILD_MS = 600_000

let buildOutput = ''

beforeAll(async () => {
  const env = { ...process.env, NODE_ENV: 'production' }
  await run(process.execPath, ['--import', 'tsx', 'scripts/docs-reference.ts'], { cwd: ROOT, env })
  const started = performance.now()
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['node_modules/vitepress/bin/vitepress.js', 'build', 'docs'],
      {
        cwd: ROOT,
        env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: BUILD_MS,
      },
    )
    buildOutput = `${stdout}${stderr}`
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string }
    throw new Error(`npm run docs:build failed:\n${e.stdout ?? ''}${e.stderr ?? String(err)}`)
  }
  console.log(`[docs] site built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}, BUILD_MS + 60_000)

describe('the documentation site', () => {
  it('builds with no dead link (VitePress checks every markdown link)', () => {
    expect(buildOutput).toContain('build complete')
    expect(buildOutput).not.toMatch(/dead link/i)
    expect(existsSync(join(DIST, 'index.html'))).toBe(true)
    for (const page of [
      'getting-started',
      'http/plugins',
      'project/benchmarks',
      'reference/vela',
      'internals/request-path',
    ]) {
      expect(existsSync(join(DIST, `${page}.html`)), page).toBe(true)
    }
  })

  it('every link inside the built site leads to a file of it, and every #anchor to an id on that page', () => {
    expect(brokenLinks(DIST)).toEqual([])
  })

  it('each entry point reference page lists every name the entry point exports', async () => {
    const pages: Record<string, string> = {
      vela: 'vela',
      'vela/vite': 'vite',
      'vela/dbl': 'dbl',
      'vela/telemetry': 'telemetry',
      'vela/testing': 'testing',
    }
    const script = `const out = {}
for (const subpath of ${JSON.stringify(Object.keys(pages))}) out[subpath] = Object.keys(await import(subpath))
process.stdout.write(JSON.stringify(out))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
    const exported = JSON.parse(stdout) as Record<string, string[]>
    const missing: string[] = []
    for (const [subpath, names] of Object.entries(exported)) {
      const html = readFileSync(join(DIST, `reference/${pages[subpath]}.html`), 'utf8')
      for (const name of names) {
        const shown = name === 'default' ? /<code>default \(\w+\)<\/code>/ : new RegExp(`<code>${name}</code>`)
        if (!shown.test(html)) missing.push(`${subpath}: ${name}`)
      }
    }
    expect(missing).toEqual([])
    const client = readFileSync(join(DIST, 'reference/client.html'), 'utf8')
    for (const name of ['virtual:vela/app', 'virtual:vela/migrations', 'create', 'migrations'])
      expect(client).toContain(`<code>${name}</code>`)
  }, 60_000)

  it('the code blocks marked `check` compile against the package types', async () => {
    const { blocks, tsconfig } = writeCheckApps(DOCS, join(ROOT, '.scratch/docs-check'))
    expect(blocks.length).toBeGreaterThanOrEqual(8)
    // The side-by-side page: each framework's app is among the blocks compiled below.
    const compared = blocks.filter((b) => b.page === 'comparison.md').map((b) => b.code)
    for (const framework of ["from 'vela'", "from 'hono'", "from 'fastify'"])
      expect(compared.some((code) => code.includes(framework))).toBe(true)
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
    let errors = ''
    try {
      await run(process.execPath, [tsc, '-p', tsconfig], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
    } catch (err) {
      errors = `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}` || String(err)
    }
    // Name the page and line of each failing block rather than the scratch file.
    for (const b of blocks) errors = errors.split(relative(ROOT, b.file)).join(`${b.page} (block at line ${b.line})`)
    expect(errors).toBe('')
  }, 120_000)

  describe.skipIf(!chromiumAvailable('the documentation screenshots'))('in headless Chromium', () => {
    it('the home page and a guide page render, with their sidebar and content', async () => {
      mkdirSync(SCREENSHOTS, { recursive: true })
      const server = await serveStatic(DIST)
      const browser = await launchChromium()
      try {
        const page = await browser.newPage({ baseURL: server.base, viewport: { width: 1280, height: 900 } })
        const failed: string[] = []
        // A chunk a navigation abandons is aborted by the browser, not missing: only real failures count.
        page.on(
          'requestfailed',
          (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && failed.push(`${r.failure()?.errorText} ${r.url()}`),
        )
        page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`))

        await page.goto('/')
        await expect.poll(() => page.textContent('.VPHero .name')).toContain('Vela')
        expect(await page.locator('.VPFeature').count()).toBeGreaterThanOrEqual(3)
        await page.screenshot({ path: join(SCREENSHOTS, 'docs-home.png'), fullPage: true })

        await Promise.all([page.waitForURL('**/getting-started.html'), page.click('.VPHero a:has-text("Get started")')])
        await expect.poll(() => page.textContent('.vp-doc h1')).toContain('Getting started')
        await page.goto('/http/plugins.html')
        await expect.poll(() => page.textContent('.vp-doc h1')).toContain('Plugins')
        expect(await page.locator('.VPSidebar a:has-text("Routes and groups")').count()).toBe(1)
        expect(await page.locator('.vp-doc h2:has-text("Write your own")').count()).toBe(1)
        await page.screenshot({ path: join(SCREENSHOTS, 'docs-guide-plugins.png'), fullPage: true })
        expect(failed).toEqual([])
      } finally {
        await browser.close()
        await server.close()
      }
    }, 120_000)
  })
})
