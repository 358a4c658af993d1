// `vela gen auth --passkeys` in a new app from the packed package, in headless Chromium: the
// generator adds @simplewebauthn/server to package.json, `vela migrations generate` writes the
// three tables, the app type-checks and its generated passkey tests pass; then, under `vite` (the
// dev server, whose mail lands on the dashboard's Mail page), a visitor registers, opens the
// confirmation link from the mailbox and is logged in; logs out; resets the password from a mailed
// link and logs in with the new one; logs in by a mailed login link; adds a passkey with
// Chromium's virtual authenticator (CDP WebAuthn) and signs in with it; deletes it, after which it
// signs in no more. No page reports a Content-Security-Policy violation or a script error.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSKEYS_PART } from '../vite-plugin/cli/commands/gen-auth/parts.ts'
import { userEnv } from '../vite-plugin/test/user-process.ts'
import { chromiumAvailable, launchChromium } from './support/chromium.ts'
import { listeningPort } from './support/listening.ts'
import { npx, sh } from './support/new-app.ts'
import { newApp } from './support/new-app-cache.ts'
import { until } from './support/until.ts'

const hasChromium = chromiumAvailable('the auth browser suite')
const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

const EMAIL = 'ann@example.com'
const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'a new and longer passphrase'
const DASHBOARD_LINK = /(https?:\/\/\S+\/__vela\?token=[\w-]+)/

/** A port nobody listens on now: the app's mailed links and passkeys name it (APP_URL) before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** `vite` in the app on `port`, with APP_URL naming it; resolves once the login page answers. */
async function startDev(app: string, port: number): Promise<{ output: () => string; stop: () => Promise<void> }> {
  let out = ''
  const proc: ChildProcess = spawn(join(app, 'node_modules/.bin/vite'), [], {
    cwd: app,
    env: userEnv({ PORT: String(port), APP_URL: `http://localhost:${port}` }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
    await exited
  }
  cleanup.push(stop)
  await until(
    'the dev server answers /users/log-in',
    async () => {
      if (proc.exitCode !== null) throw new Error(`vite exited ${proc.exitCode}:\n${out}`)
      if (listeningPort(out) === undefined) return false
      const res = await fetch(`http://localhost:${port}/users/log-in`).catch(() => undefined)
      return res?.status === 200
    },
    240_000,
  )
  return { output: () => out, stop }
}

describe.skipIf(!hasChromium)(
  'vela gen auth --passkeys in a new app, in headless Chromium',
  { timeout: 600_000 },
  () => {
    let app = ''
    let shipped: readonly string[] = []
    let devOutput = () => ''
    let generated = ''
    let base = ''
    let dashboard = ''
    let browser: Browser
    let page: Page
    let cdp: CDPSession
    let authenticatorId = ''
    const problems: string[] = []

    beforeAll(async () => {
      const made = await newApp('vela-auth-browser-')
      cleanup.push(() => made.remove())
      app = made.app
      shipped = made.packed.paths
      generated = await npx(app, 'vela', ['gen', 'auth', '--passkeys'])
      // The dependency the generator added, installed as the printed next step says; npm's cache
      // (the repo's own install put the package there) answers without the registry.
      await sh(app, 'npm', ['install', '--no-fund', '--no-audit'], { npm_config_prefer_offline: 'true' })
      await npx(app, 'vela', ['migrations', 'generate'])
      const port = await freePort()
      base = `http://localhost:${port}`
      ;[, browser] = await Promise.all([
        startDev(app, port).then(async (dev) => {
          devOutput = dev.output
          // The start line's link to the dashboard, with this start's token.
          await until('the dashboard link', () => DASHBOARD_LINK.test(dev.output())).catch(() => {
            throw new Error(`no dashboard link in the output of vite:\n${dev.output()}`)
          })
          dashboard = DASHBOARD_LINK.exec(dev.output())![1]!
        }),
        launchChromium(),
      ])
      cleanup.push(() => browser.close())
      page = await browser.newPage()
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text())
      })
      page.on('pageerror', (err) => problems.push(`script error: ${err.message}`))
      cdp = await page.context().newCDPSession(page)
      await cdp.send('WebAuthn.enable')
      const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      })
      authenticatorId = added.authenticatorId
    }, 900_000)

    /** Opens the newest mail to EMAIL with this subject on the dashboard's Mail page and clicks its link. */
    async function followMail(subject: string) {
      await expect
        .poll(
          async () => {
            await page.goto(`${base}/__vela/mail`)
            return page.locator('table.mail tr[data-id]', { hasText: subject }).count()
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBeGreaterThan(0)
      const row = page.locator('table.mail tr[data-id]', { hasText: subject }).first()
      expect(await row.locator('td').nth(1).textContent()).toBe(EMAIL)
      await row.locator('a', { hasText: subject }).click()
      await page.waitForURL(/\/__vela\/mail\/\d+$/)
      const link = page.locator('.mail-text pre a')
      expect(await link.getAttribute('href')).toMatch(new RegExp(`^${base}/users/`))
      await link.click()
      await page.waitForURL(new RegExp(`^${base}/users/`))
    }

    const flash = () => page.locator('p.flash[role="status"]').first().textContent()
    const logOut = async () => {
      await page.goto(`${base}/users/settings`)
      await page.getByRole('button', { name: 'Log out', exact: true }).click()
      await page.waitForURL(`${base}/users/log-in`)
      expect(await flash()).toBe('Logged out.')
    }

    it('adds @simplewebauthn/server to package.json and the users_passkeys table to the migration', () => {
      const unshipped = PASSKEYS_PART.files.filter(
        (f) => !shipped.includes(`dist/vite-plugin/cli/commands/gen-auth/template/passkeys/${f}`),
      )
      expect(unshipped).toEqual([])
      expect(generated).toContain('Generated src/routes/auth_passkeys.ts')
      expect(generated).toContain('Added @simplewebauthn/server@^14.1.0 to package.json: run npm install')
      const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>
      }
      expect(pkg.dependencies['@simplewebauthn/server']).toBe('^14.1.0')
      const migrations = readdirSync(join(app, 'src/migrations')).map((f) =>
        readFileSync(join(app, 'src/migrations', f), 'utf8'),
      )
      const auth = migrations.find((m) => m.includes('users_passkeys'))
      expect(auth).toBeDefined()
      expect(auth).toContain('users_tokens')
    })

    it('the generated app type-checks, and its passkey tests pass', async () => {
      await npx(app, 'tsc', ['--noEmit'])
      const out = await npx(app, 'vitest', ['run', 'test/auth/passkeys.test.ts'])
      expect(out).toMatch(/Tests\s+\d+ passed/)
    })

    it('registers, confirms from the mailbox, logs out', async () => {
      // Opening the dashboard's link once leaves its token in a cookie: the Mail page opens after.
      await page.goto(`${base}${new URL(dashboard).pathname}${new URL(dashboard).search}`)
      // The pages are served under the starter's Content-Security-Policy: scripts from the origin only.
      const register = await page.goto(`${base}/users/register`)
      expect(register!.headers()['content-security-policy']).toContain("script-src 'self'")
      await page.fill('#email', EMAIL)
      await page.fill('#password', PASSWORD)
      await page.fill('#password_confirmation', PASSWORD)
      await page.getByRole('button', { name: 'Register' }).click()
      await page.waitForURL(`${base}/users/log-in`)
      expect(await flash()).toContain('Open the link we emailed you')

      await followMail('Confirm your account')
      await page.getByRole('button', { name: 'Confirm my account' }).click()
      await page.waitForURL(`${base}/users/settings`)
      expect(await page.textContent('main')).toContain(`Logged in as ${EMAIL}`)
      await logOut()
    })

    it('resets the password from the mailed link, then logs in with the new one', async () => {
      await page.goto(`${base}/users/reset-password`)
      await page.fill('#email', EMAIL)
      await page.getByRole('button', { name: 'Email me a reset link' }).click()
      await page.waitForURL(`${base}/users/log-in`)
      await followMail('Reset your password')
      await page.fill('#password', NEW_PASSWORD)
      await page.fill('#password_confirmation', NEW_PASSWORD)
      await page.getByRole('button', { name: 'Reset the password' }).click()
      await page.waitForURL(`${base}/users/log-in`)
      expect(await flash()).toContain('Your password is reset')

      await page.fill('#email', EMAIL)
      await page.fill('#password', NEW_PASSWORD)
      await page.getByRole('button', { name: 'Log in', exact: true }).click()
      await page.waitForURL(`${base}/users/settings`)
      await logOut()
    })

    it('logs in by a mailed login link', async () => {
      await page.fill('#link-email', EMAIL)
      await page.getByRole('button', { name: 'Email me a link' }).click()
      await page.waitForURL(`${base}/users/log-in`)
      await followMail('Your login link')
      await page.getByRole('button', { name: 'Log me in' }).click()
      await page.waitForURL(`${base}/users/settings`)
      expect(await page.textContent('main')).toContain(`Logged in as ${EMAIL}`)
    })

    it('adds a passkey with the virtual authenticator, then signs in with it', async () => {
      await page.getByRole('link', { name: 'Your passkeys' }).click()
      await page.waitForURL(`${base}/users/settings/passkeys`)
      expect(await page.textContent('main')).toContain('You have no passkey yet.')
      await page.fill('#passkey-name', 'Test laptop')
      await page.getByRole('button', { name: 'Add a passkey' }).click()
      await expect
        .poll(() => flash(), { timeout: 20_000 })
        .toBe('Passkey "Test laptop" added: you can log in with it now.')
      expect(await page.locator('table.passkeys td.name').allTextContents()).toEqual(['Test laptop'])
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
      expect(credentials).toHaveLength(1)
      expect(credentials[0]!.isResidentCredential).toBe(true)

      await logOut()
      await page.getByRole('button', { name: 'Log in with a passkey' }).click()
      await page.waitForURL(`${base}/users/settings`, { timeout: 20_000 })
      expect(await page.textContent('main')).toContain(`Logged in as ${EMAIL}`)
      await page.goto(`${base}/users/settings/passkeys`)
      expect(await page.locator('table.passkeys tbody td').nth(2).textContent()).not.toBe('never')
    })

    it('a deleted passkey signs in no more, and the page says only that it failed', async () => {
      await page.goto(`${base}/users/settings/passkeys`)
      await page.getByRole('button', { name: 'Delete' }).click()
      await page.waitForURL(`${base}/users/settings/passkeys`)
      expect(await flash()).toBe('Passkey deleted.')
      expect(await page.textContent('main')).toContain('You have no passkey yet.')

      await logOut()
      // The authenticator still holds the credential; the app no longer knows it.
      await page.getByRole('button', { name: 'Log in with a passkey' }).click()
      const message = page.locator('[data-passkey-message]')
      await expect.poll(() => message.isVisible(), { timeout: 20_000 }).toBe(true)
      expect(await message.textContent()).toBe('That passkey did not sign you in. Try again, or log in another way.')
      expect(page.url()).toBe(`${base}/users/log-in`)
      expect(problems).toEqual([])
      expect(devOutput()).not.toMatch(/ExperimentalWarning|VELA_DEP_|Error/)
    })
  },
)
