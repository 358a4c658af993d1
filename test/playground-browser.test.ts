// The playground in a real browser: headless Chromium (Debian's `chromium`, never a downloaded
// one) driven by playwright-core. A user logs in, creates, edits and deletes a note and logs out;
// the API explorer at /docs/swagger.html lists the API's operations; the login, notes and explorer
// pages load under the app's Content-Security-Policy with no violation. Screenshots of each step
// are kept in test-results/screenshots/ (git-ignored) as the run's artifacts.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { chromiumAvailable, launchChromium } from './support/chromium.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Playground } from './support/playground.ts'
import { startPlayground } from './support/playground.ts'

const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url))

describe.skipIf(!chromiumAvailable('the browser suite'))('the playground in headless Chromium', () => {
  let server: Playground
  let browser: Browser
  let page: Page
  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true })

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    ;[server, browser] = await Promise.all([startPlayground(), launchChromium()])
    page = await browser.newPage({ baseURL: server.base, viewport: { width: 1000, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('log in, create, edit and delete a note, log out', async () => {
    await page.goto('/notes')
    expect(new URL(page.url()).pathname).toBe('/login') // anonymous: sent to the login form
    await page.fill('#username', 'admin')
    await page.fill('#password', 'wrong password')
    await page.click('button[type=submit]')
    await expect.poll(() => page.textContent('[role=alert]')).toContain('Invalid username or password.')
    await shot('01-login-failed')

    await page.fill('#username', 'admin')
    await page.fill('#password', 'password')
    await Promise.all([page.waitForURL('**/notes'), page.click('button[type=submit]')])
    expect(await page.textContent('header')).toContain('admin')
    await shot('02-notes-empty')

    await Promise.all([page.waitForURL('**/notes/new'), page.click('text=New note')])
    await page.fill('#title', 'Groceries')
    await page.fill('#body', 'milk\neggs')
    await Promise.all([page.waitForURL('**/notes'), page.click('text=Save')])
    expect(await page.locator('article.note h2').allTextContents()).toEqual(['Groceries'])
    expect(await page.textContent('article.note .body')).toBe('milk\neggs')
    // The author is the signed-in user, never a form field.
    expect(await page.textContent('article.note p.meta')).toMatch(/^by admin · /)
    await shot('03-note-created')

    await Promise.all([page.waitForURL('**/notes/*/edit'), page.click('article.note >> text=Edit')])
    expect(await page.inputValue('#title')).toBe('Groceries')
    await page.fill('#title', 'Groceries for Sunday')
    await shot('04-note-editing')
    await Promise.all([page.waitForURL('**/notes'), page.click('text=Save')])
    expect(await page.locator('article.note h2').allTextContents()).toEqual(['Groceries for Sunday'])
    await shot('05-note-edited')

    await Promise.all([page.waitForURL('**/notes'), page.click('article.note >> text=Delete')])
    expect(await page.locator('article.note').count()).toBe(0)
    expect(await page.textContent('main, body')).toContain('No notes yet.')
    await shot('06-note-deleted')

    await Promise.all([page.waitForURL('**/login'), page.click('text=Log out')])
    await page.goto('/notes')
    expect(new URL(page.url()).pathname).toBe('/login')
    await shot('07-logged-out')
  })

  it('the explorer at /docs/swagger.html lists the API operations', async () => {
    // The dev server writes the explorer's files in the background once the app has loaded.
    await expect
      .poll(() => fetch(`${server.base}/docs/openapi.json`).then((r) => r.status), { timeout: 10_000 })
      .toBe(200)
    await page.goto('/docs/swagger.html')
    await page.waitForSelector('.opblock', { timeout: 15_000 })
    const operations = await page.$$eval('.opblock-summary', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    )
    for (const op of [
      'GET /api/users',
      'POST /api/users',
      'GET /api/users/{id}',
      'GET /api/products',
      'POST /api/products',
      'GET /api/products/{id}',
      'PUT /api/products/{id}',
      'DELETE /api/products/{id}',
      'GET /api/notes',
      'POST /api/notes',
      'PUT /api/notes/{id}',
      'DELETE /api/notes/{id}',
    ]) {
      expect(operations).toContain(op)
    }
    expect(await page.textContent('.info .title')).toContain('playground')
    await shot('08-api-explorer')
  })

  it('the login, notes and explorer pages load under the Content-Security-Policy with no violation', async () => {
    const context = await browser.newContext({ baseURL: server.base })
    // Violations as the page sees them (the event) and as the console reports them ("Refused to …").
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { __violations: string[] }).__violations = [])
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
      )
    })
    const csp = await context.newPage()
    const refused: string[] = []
    csp.on('console', (m) => {
      if (/Refused to|Content[- ]Security[- ]Policy/i.test(m.text())) refused.push(m.text())
    })
    const violations = () => csp.evaluate(() => (window as unknown as { __violations: string[] }).__violations)
    const visit = async (path: string, ready: string) => {
      const res = await csp.goto(path)
      await csp.waitForSelector(ready, { timeout: 15_000 })
      return res!
    }
    try {
      const login = await visit('/login', '#username')
      expect(login.headers()['content-security-policy']).toContain("script-src 'self'")
      expect(login.headers()['x-frame-options']).toBe('DENY')
      // The stylesheet applied (it is a file now, not an inline <style> the policy would block).
      expect(await csp.evaluate(() => getComputedStyle(document.body).maxWidth)).not.toBe('none')
      expect(await violations()).toEqual([])
      await csp.fill('#username', 'admin')
      await csp.fill('#password', 'password')
      await Promise.all([csp.waitForURL('**/notes'), csp.click('button[type=submit]')])
      expect(await violations()).toEqual([])
      await visit('/notes/new', '#title')
      expect(await violations()).toEqual([])
      await expect
        .poll(() => fetch(`${server.base}/docs/openapi.json`).then((r) => r.status), { timeout: 10_000 })
        .toBe(200)
      const explorer = await visit('/docs/swagger.html', '.opblock')
      expect(explorer.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
      // Open an operation: swagger-ui renders its parameters and responses.
      await csp.click('.opblock-summary >> nth=0')
      await csp.waitForSelector('.opblock-body', { timeout: 15_000 })
      expect(await violations()).toEqual([])
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  })
})
