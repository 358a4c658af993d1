// The documentation site, built as `npm run docs:build` builds it (reference pages generated from
// the entry points, then VitePress, which fails the build on a dead link), once for every case
// here. Then: every link inside the built site leads to a page or file of it, and every `#anchor`
// to a heading that exists; every old address of a moved page (docs/.vitepress/moved.ts) is a
// redirect to its new page; the changelog is on the site, with repository and edit links; every
// export of every entry point is on its reference page; the code blocks marked ```` ```ts check ````
// compile against the package's types (CONTRIBUTING.md); and headless Chromium (Debian's
// `chromium`, skipped without it unless CI) shows the home page, the tutorial, a guide page and a
// reference page (a signature, no table) at 1280 px with nothing cut off, screenshots in test-results/screenshots/docs-*.png.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { CODE_WIDTH } from '../scripts/reference/format.ts'
import { MOVED } from '../docs/.vitepress/moved.ts'
import { chromiumAvailable, launchChromium } from './support/chromium.ts'
import { cutOff } from './support/cut-off.ts'
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
// How long a page may take to render in Chromium: seconds on a busy 2-core machine, not the poll's default one.
const RENDERED = { timeout: 30_000 }

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
      'reference/cli',
      'internals/request-path',
    ]) {
      expect(existsSync(join(DIST, `${page}.html`)), page).toBe(true)
    }
  })

  it('every link inside the built site leads to a file of it, and every #anchor to an id on that page', () => {
    expect(brokenLinks(DIST)).toEqual([])
  })

  it('every old address of a moved page is a redirect to the page it moved to', () => {
    expect(Object.keys(MOVED).length).toBeGreaterThanOrEqual(30)
    const wrong: string[] = []
    for (const [from, to] of Object.entries(MOVED)) {
      // A redirect written over a page that still exists would hide it.
      if (existsSync(join(DOCS, `${from}.md`))) wrong.push(`${from}.md still exists`)
      if (!existsSync(join(DIST, `${to}.html`))) wrong.push(`${from} → ${to}: no ${to}.html`)
      const html = existsSync(join(DIST, `${from}.html`)) ? readFileSync(join(DIST, `${from}.html`), 'utf8') : ''
      for (const part of [`url=/${to}.html"`, `rel="canonical" href="/${to}.html"`, `<a href="/${to}.html">`])
        if (!html.includes(part)) wrong.push(`${from}.html lacks ${part}`)
    }
    expect(wrong).toEqual([])
  })

  it('the changelog is on the site; pages link to the repository and to their source for editing', () => {
    const { repository } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      repository: { url: string }
    }
    const repo = repository.url.replace(/^git\+/, '').replace(/\.git$/, '')
    expect(repo).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/)
    const page = (path: string) => readFileSync(join(DIST, path), 'utf8')
    // Checked as booleans, named: a failure would otherwise print a whole page.
    const newest = /^## (.+)$/m.exec(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'))![1]!
    const seen = {
      'the changelog shows its newest section': new RegExp(
        `<h2 id="[^"]+"[^>]*>${newest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ).test(page('project/changelog.html')),
      'the include was resolved': !page('project/changelog.html').includes('@include'),
      'the changelog edits CHANGELOG.md': page('project/changelog.html').includes(
        `href="${repo}/edit/main/CHANGELOG.md"`,
      ),
      'a page edits its source': page('http/security.html').includes(`href="${repo}/edit/main/docs/http/security.md"`),
      'a page links to the repository': page('http/security.html').includes(`href="${repo}"`),
      'the upgrading page is there': page('project/upgrading.html').includes('Upgrading from 0.1'),
      // Reference pages are generated: there is nothing to edit.
      'a reference page has no edit link': !page('reference/vela.html').includes(`href="${repo}/edit/`),
    }
    expect(Object.entries(seen).filter(([, ok]) => !ok)).toEqual([])
  })

  it('each entry point reference page has a heading for every value the entry point exports', async () => {
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
        // Anchored by its name; a default export by the name it is declared with.
        const heading =
          name === 'default'
            ? /<h3 id="\w+"[^>]*><code>\w+<\/code> \(default export\)/
            : new RegExp(`<h3 id="${name}"[^>]*><code>${name}</code>`)
        if (!heading.test(html)) missing.push(`${subpath}: ${name}`)
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
    /** The pages shown, each with what must be on it. */
    const PAGES = [
      { path: '/', shot: 'docs-home', heading: '.VPHero .name', text: 'Vela' },
      { path: '/getting-started.html', shot: 'docs-getting-started', heading: '.vp-doc h1', text: 'Getting started' },
      { path: '/http/plugins.html', shot: 'docs-guide-plugins', heading: '.vp-doc h1', text: 'Plugins' },
      { path: '/reference/vela.html', shot: 'docs-reference-vela', heading: '.vp-doc h1', text: 'vela' },
    ]

    it('the home page, the tutorial, a guide page and a reference page show at 1280 px, nothing cut off', async () => {
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

        const cut: string[] = []
        for (const p of PAGES) {
          await page.goto(p.path)
          await expect.poll(() => page.textContent(p.heading), RENDERED).toContain(p.text)
          await page.screenshot({ path: join(SCREENSHOTS, `${p.shot}.png`), fullPage: true })
          cut.push(...(await cutOff(page)).map((c) => `${p.path}: ${c}`))
        }
        expect(cut).toEqual([])

        await page.goto('/')
        expect(await page.locator('.VPFeature').count()).toBeGreaterThanOrEqual(3)
        await Promise.all([page.waitForURL('**/getting-started.html'), page.click('.VPHero a:has-text("Get started")')])
        await page.goto('/http/plugins.html')
        // The sidebar's sections, and the page's own.
        for (const section of ['Essentials', 'Database', 'HTTP', 'Deploy', 'Internals', 'Project'])
          expect(await page.locator(`.VPSidebar .text:text-is("${section}")`).count(), section).toBe(1)
        expect(await page.locator('.VPSidebar a:has-text("Routes and groups")').count()).toBe(1)
        expect(await page.locator('.vp-doc h2:has-text("Which hook do I use")').count()).toBe(1)
        expect(await page.locator('.vp-doc h2:has-text("Write your own")').count()).toBe(1)
        // A reference page: nothing wider than the content column but code a formatter cannot break.
        await page.goto('/reference/vela.html#json')
        await expect.poll(() => page.textContent('.vp-doc h1'), RENDERED).toContain('vela')
        expect(await page.locator('.VPSidebar a:has-text("The vela command")').count()).toBe(1)
        expect(await page.locator('.vp-doc h3#json + div pre').textContent()).toMatch(/^function json</)
        await page.screenshot({ path: join(SCREENSHOTS, 'docs-reference-json.png') })
        const layout = await page.evaluate(() => {
          const doc = document.querySelector('.vp-doc')!
          const wider = (e: Element) => e.scrollWidth > e.clientWidth + 1
          const longest = (e: Element) =>
            (e.textContent ?? '').split('\n').reduce((a, l) => (l.length > a.length ? l : a), '')
          return {
            pageWidth: document.documentElement.scrollWidth,
            tables: doc.querySelectorAll('table').length,
            wideText: [...doc.querySelectorAll('p, li, h2, h3, .custom-block')].filter(wider).map((e) => e.textContent),
            // The longest line of each code block that scrolls.
            wideCode: [...doc.querySelectorAll('pre')].filter(wider).map(longest),
          }
        })
        expect(layout).toMatchObject({ pageWidth: 1280, tables: 0, wideText: [] })
        // The generator lays code out in CODE_WIDTH characters: a block scrolls only for a line the
        // formatter could not break (a long string), never because the column is narrower.
        expect(layout.wideCode.filter((line) => line.length <= CODE_WIDTH)).toEqual([])
        expect(failed).toEqual([])
      } finally {
        await browser.close()
        await server.close()
      }
    }, 180_000)

    it('an old address sends the reader to the moved page, at the same anchor', async () => {
      const server = await serveStatic(DIST)
      const browser = await launchChromium()
      try {
        const page = await browser.newPage({ baseURL: server.base })
        await page.goto('/guide/plugins.html#write-your-own')
        await page.waitForURL('**/http/plugins.html#write-your-own')
        await expect.poll(() => page.textContent('.vp-doc h1'), RENDERED).toContain('Plugins')
        await page.goto('/security.html#behind-a-proxy')
        await page.waitForURL('**/http/security.html#behind-a-proxy')
        expect(await page.locator('.vp-doc h2#behind-a-proxy').count()).toBe(1)
      } finally {
        await browser.close()
        await server.close()
      }
    }, 60_000)
  })
})
