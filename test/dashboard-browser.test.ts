// The development dashboard in a real browser: headless Chromium (Debian's `chromium`) on a copy of the
// playground (plus one failing route) under `vela serve`. The start line's link opens /__vela; the list shows a request to
// /api/products/:id with its route and status, its detail the query span with its SQL; a failing
// request (500) shows its error and the lines logged for it; a request made while the list is open
// appears without a reload. A request's detail lists each plugin that ran with its outcome, the
// security callback's verdict and the response headers; the app page's charts redraw as requests
// arrive. The Mail page lists a message a route sent; the link in its HTML, clicked inside the
// sandboxed frame, opens the app in the tab. Every page loads under the default Content-Security-Policy of securityHeaders() with no
// violation. Screenshots go to test-results/screenshots/.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium } from './support/chromium.ts'
import type { Playground } from './support/playground.ts'
import { PLAYGROUND, startPlayground } from './support/playground.ts'

const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url))
// A copy of the playground (inside the package, git-ignored, so `vela` and its dependencies
// resolve as for the playground itself) with one more route file, discovered like the others,
// whose handler logs a line and throws: the playground itself has no route that fails.
const APP = fileURLToPath(new URL('../.scratch/dashboard-playground/', import.meta.url))
const FAILING_ROUTE = `import { defineRoutes } from 'vela'

export default defineRoutes({
  prefix: '/failing',
  security: false,
  routes: [['GET ', () => {
    console.error('checking stock before failing')
    throw new Error('the stock service is unavailable')
  }]],
})
`

// And a route that mails a confirmation link: in dev the mailer keeps it for the Mail page.
const MAILING_ROUTE = `import { defineRoutes, json } from 'vela'
import { defineMailer } from 'vela/mail'

const mailer = defineMailer({ from: 'Shop <shop@example.com>' })

export default defineRoutes({
  prefix: '/mailing',
  security: false,
  routes: [['POST ', async (req) => {
    const link = new URL('/heartbeat?confirmed=1', req.url).href
    const sent = await mailer.send({
      to: 'ann@example.com',
      subject: 'Confirm your account',
      html: '<p>Hello Ann,</p><p><a id="confirm" href="' + link + '">Confirm</a></p>',
      text: 'Hello Ann,\\nConfirm: ' + link,
    })
    return json({ id: sent.id })
  }]],
})
`

const hasChromium = chromiumAvailable('the dashboard browser suite')

describe.skipIf(!hasChromium)('the development dashboard in headless Chromium', () => {
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
    writeFileSync(join(APP, 'src/routes/mailing.ts'), MAILING_ROUTE)
    ;[server, browser] = await Promise.all([
      // A loaded machine takes a while to boot the playground (its migrations on PGlite).
      startPlayground({ cwd: APP, startTimeoutMs: 170_000 }),
      launchChromium(),
    ])
    // The link as printed in the start line, on the port the test chose.
    link = /dashboard (http:\/\/\S+\/__vela\?token=\S+)/.exec(server.output())![1]!
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
    })
    const created = await fetch(`${server.base}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lamp', price: 12 }),
    })
    expect(created.status).toBe(201)
    productId = ((await created.json()) as { id: number }).id
    expect((await fetch(`${server.base}/api/products/${productId}`)).status).toBe(200)
    expect((await fetch(`${server.base}/failing`)).status).toBe(500)
    // An anonymous visit to the notes: the session security callback sends it to the login page.
    expect((await fetch(`${server.base}/notes`, { redirect: 'manual' })).status).toBe(302)
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
    const row = page.locator('#requests tbody tr', {
      has: page.locator('td.path', { hasText: new RegExp(`^/api/products/${productId}$`) }),
    })
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1)
    expect(await row.locator('td.route').textContent()).toBe('/api/products/:id')
    expect(await row.locator('td.status').textContent()).toBe('200')
    await shot('01-requests')

    await Promise.all([page.waitForURL('**/__vela/requests/*'), row.locator('td.path a').click()])
    expect(await page.textContent('dd.route')).toContain('/api/products/:id')
    const query = page.locator('table.spans tr.query').first()
    expect(await query.locator('td.sql').textContent()).toMatch(/select .* from "products" where "id" = \$1/)
    expect(await query.locator('td.params').textContent()).toBe(String(productId))
    expect(await page.locator('svg.waterfall rect.query').count()).toBeGreaterThan(0)
    // The API group's plugins, in order, each with its outcome; the group has no security callback.
    const steps = await page
      .locator('table.pipeline tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)))
    expect(steps).toEqual([
      ['pre', 'cors', 'continued'],
      ['pre', 'request', 'continued'],
      ['pre', 'body_required', 'continued'],
    ])
    const headers = await page
      .locator('section.response-headers tr')
      .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]))
    expect(headers).toContainEqual(['content-type', expect.stringMatching(/^application\/json/)])
    expect(headers.map(([name]) => name)).toContain('content-security-policy')
    await shot('02-request-detail')
  })

  it('a request the security callback turned away shows the plugins that ran and the verdict', async () => {
    await page.goto(`${server.base}/__vela?route=/notes`)
    const row = page.locator('#requests tbody tr', { has: page.locator('td.path', { hasText: /^\/notes$/ }) }).first()
    expect(await row.locator('td.status').textContent()).toBe('302')
    await Promise.all([page.waitForURL('**/__vela/requests/*'), row.locator('td.path a').click()])
    const steps = page.locator('table.pipeline tbody tr')
    expect(await steps.locator('td.name').allTextContents()).toEqual([
      'request',
      'session',
      'csrf',
      'username_password',
    ])
    const security = page.locator('table.pipeline tr.security')
    expect(await security.locator('td.outcome').textContent()).toBe('replied 302')
    expect(await page.locator('table.pipeline tr.plugin td.outcome').allTextContents()).toEqual([
      'continued',
      'continued',
      'continued',
    ])
    const headers = await page
      .locator('section.response-headers tr')
      .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]))
    expect(headers).toContainEqual(['location', '/login'])
    // The session cookie set on the way out keeps its name; its sealed value is not shown.
    for (const [name, value] of headers) if (name === 'set-cookie') expect(value).toMatch(/^[\w-]+=\[redacted\]/)
    await shot('06-request-security')
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
    await expect.poll(() => page.evaluate(() => document.readyState), { timeout: 30_000 }).toBe('complete')
    const live = page.locator('#requests tbody tr', {
      has: page.locator('td.path', { hasText: '/api/products/424242' }),
    })
    await expect
      .poll(
        async () => {
          if ((await live.count()) === 0) await fetch(`${server.base}/api/products/424242`)
          return live.count()
        },
        { timeout: 10_000, interval: 500 },
      )
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
  })

  it('the app page charts request rate, latency and error rate, and redraws them as requests arrive', async () => {
    await page.goto(`${server.base}/__vela/app`)
    expect(await page.locator('figure.chart').evaluateAll((f) => f.map((x) => x.getAttribute('data-chart')))).toEqual([
      'rate',
      'latency',
      'errors',
    ])
    expect(await page.locator('figure.chart.latency polyline').count()).toBe(3)
    // The 500 made before lifts the error line off its axis (y 112) in its bucket.
    const errorYs = (await page.locator('figure.chart.errors polyline').getAttribute('points'))!
      .split(' ')
      .map((p) => Number(p.split(',')[1]))
    expect(Math.min(...errorYs)).toBeLessThan(112)
    const counted = async () => Number(await page.locator('figure.chart.rate').getAttribute('data-requests'))
    await expect.poll(() => page.evaluate(() => document.readyState), { timeout: 30_000 }).toBe('complete')
    const before = await counted()
    // New requests reach the charts without a reload (the page's script redraws them).
    await expect
      .poll(
        async () => {
          await fetch(`${server.base}/api/products/${productId}`)
          return counted()
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThan(before)
    const points = await page.locator('figure.chart.rate polyline').getAttribute('points')
    expect(points!.split(' ')).toHaveLength(30)
    await shot('07-app-charts')
    expect(violations).toEqual([])
  })

  it("the Mail page lists a mail the app sent; its HTML's link, clicked in the frame, opens the app in the tab", async () => {
    const sent = await fetch(`${server.base}/mailing`, { method: 'POST' })
    expect(sent.status).toBe(200)
    const { id } = (await sent.json()) as { id: number }
    await page.goto(`${server.base}/__vela/mail`)
    const row = page.locator(`table.mail tr[data-id="${id}"]`)
    expect(await row.locator('td').nth(1).textContent()).toBe('ann@example.com')
    await row.locator('a', { hasText: 'Confirm your account' }).click()
    await page.waitForURL(`${server.base}/__vela/mail/${id}`)
    expect(await page.locator('.mail-text pre a').getAttribute('href')).toBe(`${server.base}/heartbeat?confirmed=1`)
    const frame = page.frameLocator('.mail-html iframe')
    await expect.poll(() => frame.locator('#confirm').count(), { timeout: 20_000 }).toBe(1)
    await shot('08-mail')
    await frame.locator('#confirm').click()
    await page.waitForURL(`${server.base}/heartbeat?confirmed=1`, { timeout: 20_000 })
    expect(violations).toEqual([])
  })
})
