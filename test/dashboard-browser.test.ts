// The development dashboard in a real browser: headless Chromium (Debian's `chromium`) on a copy of the
// playground (plus one failing route) under `vela serve`. The start line's link opens /__vela; the list shows a request to
// /api/products/:id with its route and status, its detail the query span with its SQL; a failing
// request (500) shows its error and the lines logged for it; a request made while the list is open
// appears without a reload. Every page loads under the default Content-Security-Policy of
// securityHeaders() with no violation. Screenshots go to test-results/screenshots/.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Playground } from './support/playground.ts'
import { PLAYGROUND, startPlayground } from './support/playground.ts'

const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url))
// A copy of the playground (inside the package, git-ignored, so `vela` and its dependencies
// resolve as for the playground itself) with one more route file, discovered like the others,
// whose handler logs a line and throws: the playground itself has no route that fails.
const APP = fileURLToPath(new URL('../.scratch/dashboard-playground/', import.meta.url))
const FAILING_ROUTE = `import { defineRoutes } from 'vela'

export default defineRoutes({
  prefix: '/failing',
  security: false,
  routes: [['', () => {
    console.error('checking stock before failing')
    throw new Error('the stock service is unavailable')
  }]],
})
`

function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true
  const message = `${CHROMIUM} is missing (apt-get install -y chromium)`
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`${message}; CI needs it, so this is a failure, not a skip`)
  console.warn(`[vela tests] ${message}: skipping the dashboard browser suite`)
  return false
}

describe.skipIf(!chromiumAvailable())('the development dashboard in headless Chromium', () => {
  let server: Playground
  let browser: Browser
  let page: Page
  let link = ''
  let productId = 0
  const violations: string[] = []
  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}dashboard-${name}.png`, fullPage: true })

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    rmSync(APP, { recursive: true, force: true })
    cpSync(PLAYGROUND, APP, { recursive: true, filter: (src) => !/[/\\](\.data|assets)$/.test(src) })
    writeFileSync(join(APP, 'src/routes/failing.ts'), FAILING_ROUTE)
    ;[server, browser] = await Promise.all([
      // A loaded machine takes a while to boot the playground (its migrations on PGlite).
      startPlayground({ cwd: APP, startTimeoutMs: 170_000 }),
      chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      }),
    ])
    // The link as printed in the start line, on the port the test chose.
    link = /dashboard (http:\/\/\S+\/__vela\?token=\S+)/.exec(server.output())![1]!
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
    })
    const created = await fetch(`${server.base}/api/products`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Lamp', price: 12 }) })
    expect(created.status).toBe(201)
    productId = ((await created.json()) as { id: number }).id
    expect((await fetch(`${server.base}/api/products/${productId}`)).status).toBe(200)
    expect((await fetch(`${server.base}/failing`)).status).toBe(500)
  }, 200_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(APP, { recursive: true, force: true })
  })

  it('the start line links to the dashboard; without the token it is refused', async () => {
    expect(link).toMatch(/\/__vela\?token=[\w-]{16,}$/)
    const refused = await fetch(`${server.base}/__vela`)
    expect(refused.status).toBe(403)
  })

  it('lists the request to /api/products/:id with its route and status; its detail shows the query span with its SQL', async () => {
    await page.goto(link)
    expect(new URL(page.url()).search).toBe('') // the token moved into a cookie
    const row = page.locator('#requests tbody tr', { has: page.locator('td.path', { hasText: new RegExp(`^/api/products/${productId}$`) }) })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.locator('td.route').textContent()).toBe('/api/products/:id')
    expect(await row.locator('td.status').textContent()).toBe('200')
    await shot('01-requests')

    await Promise.all([page.waitForURL('**/__vela/requests/*'), row.locator('td.path a').click()])
    expect(await page.textContent('dd.route')).toContain('/api/products/:id')
    const query = page.locator('table.spans tr.query').first()
    expect(await query.locator('td.sql').textContent()).toMatch(/select .* from "products" where "id" = \$1/)
    expect(await query.locator('td.params').textContent()).toBe(String(productId))
    expect(await page.locator('svg.waterfall rect.query').count()).toBeGreaterThan(0)
    await shot('02-request-detail')
  })

  it('a failing request (500) shows its error and its logs', async () => {
    await page.goto(`${server.base}/__vela?status=5xx`)
    const row = page.locator('#requests tbody tr', { has: page.locator('td.path', { hasText: /^\/failing$/ }) })
    expect(await row.count()).toBe(1)
    expect(await row.locator('td.status').textContent()).toBe('500')
    await Promise.all([page.waitForURL('**/__vela/requests/*'), row.locator('td.path a').click()])
    expect(await page.textContent('section.error .message')).toBe('Error: the stock service is unavailable')
    expect(await page.textContent('section.error pre')).toContain('failing.ts')
    const logs = await page.locator('section.logs tr').allTextContents()
    expect(logs[0]).toContain('checking stock before failing')
    // The runtime's own line for the 500 is among them.
    expect(logs.some((l) => l.includes('500') && l.includes('the stock service is unavailable'))).toBe(true)
    await shot('03-request-500')
  })

  it('a new request appears on the list without a reload', async () => {
    await page.goto(`${server.base}/__vela`)
    const before = await page.locator('#requests tbody tr').count()
    // The event stream is open once the page's script ran; wait for it before asking.
    await expect.poll(() => page.evaluate(() => document.readyState)).toBe('complete')
    const live = page.locator('#requests tbody tr', { has: page.locator('td.path', { hasText: '/api/products/424242' }) })
    await expect
      .poll(async () => {
        if ((await live.count()) === 0) await fetch(`${server.base}/api/products/424242`)
        return live.count()
      }, { timeout: 10_000, interval: 500 })
      .toBeGreaterThan(0)
    expect(await page.locator('#requests tbody tr').count()).toBeGreaterThan(before)
    expect(await live.first().locator('td.status').textContent()).toBe('404')
    await shot('04-live-request')
  })

  it('the app page lists routes with their groups, security and plugins, and the configuration', async () => {
    await page.goto(`${server.base}/__vela/app`)
    expect(await page.textContent('main')).toContain('/api/products/:id')
    expect(await page.locator('article.group h3').allTextContents()).toContain('Group /api')
    expect(await page.locator('table.config th').allTextContents()).toContain('server.port')
    await shot('05-app')
    expect(violations).toEqual([])
  })
})
