/**
 * An app written for Vela 0.1 upgrades without a rewrite: the starter as 0.1's `vela new` wrote it
 * (test/fixtures/starter-0.1/), dropped into a new app from the packed package, builds, passes its
 * own tests and serves, naming each old form it uses in a deprecation warning. The same app edited
 * as the CHANGELOG's Upgrading items say (test/fixtures/starter-0.1-upgraded/ holds the files that
 * change) type-checks, builds, passes and serves with no warning at all.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { copyDist, npx, startAndProbe } from './support/new-app.ts'
import type { NewApp } from './support/new-app-cache.ts'
import { newApp } from './support/new-app-cache.ts'

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))
const DEPRECATION = /VELA_DEP_|DeprecationWarning/

let made: NewApp
let app: string
const cleanup: Array<() => unknown> = []
beforeAll(async () => {
  made = await newApp('vela-oldstarter-')
  cleanup.push(() => made.remove())
  app = made.app
}, 900_000)
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

/**
 * Replaces the app's src/, test/, priv/ and vite.config.ts with the 0.1 starter's, as a user copying
 * their 0.1 app over would, then lays each of `edits` over it: a fixture holding only the files an
 * upgrade changes. The app keeps its own generated migration (the fixture's holds the same
 * statements under 0.1's file name).
 */
function useFixture(...edits: string[]): void {
  const migrations = join(app, 'src/migrations')
  const [migration] = readdirSync(migrations).filter((f) => f.endsWith('_create_notes.ts'))
  expect(migration).toBeDefined()
  const kept = readFileSync(join(migrations, migration!), 'utf8')
  for (const path of ['src', 'test', 'priv', 'vite.config.ts', 'dist'])
    rmSync(join(app, path), { recursive: true, force: true })
  for (const name of ['starter-0.1', ...edits])
    cpSync(join(FIXTURES, name), app, {
      recursive: true,
      filter: (src) => !src.endsWith(join('src', 'migrations', 'create_notes.ts')),
    })
  mkdirSync(migrations, { recursive: true })
  writeFileSync(join(migrations, migration!), kept)
  // `vela new` writes the app's name where the template says __APP_NAME__.
  const appTs = join(app, 'src/app.ts')
  writeFileSync(appTs, readFileSync(appTs, 'utf8').replaceAll('__APP_NAME__', 'notes-app'))
}

/** The deprecation codes in some output, each once, sorted. */
const codes = (out: string) => [...new Set([...out.matchAll(/\bVELA_DEP_[A-Z_]+\b/g)].map((m) => m[0]))].sort()

/**
 * The built server from a copy of dist/ alone (its own `.data/`): the notes page, a note made and
 * listed through the API, a form post and a note the controller refuses (a blank title passes the
 * route's schema). Returns what the server printed.
 */
async function serveAndUse(): Promise<string> {
  const dist = copyDist(app)
  cleanup.push(() => rmSync(dist, { recursive: true, force: true }))
  const { value: server } = await startAndProbe(dist, process.execPath, ['server/index.mjs'], {}, '/heartbeat')
  try {
    const page = await fetch(`${server.url}/notes`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(await page.text()).toMatch(/<p class="count">0 notes<\/p>/)

    const created = await fetch(`${server.url}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Buy milk', body: 'Two litres' }),
    })
    expect(created.status).toBe(201)
    const note = (await created.json()) as { id: number; title: string; body: string }
    expect(note).toMatchObject({ title: 'Buy milk', body: 'Two litres' })
    // The reply is the record's fields alone: the read bridge's getters are not serialized.
    expect(Object.keys(note).sort()).toEqual(['body', 'id', 'inserted_at', 'title', 'updated_at'])

    const listed = await fetch(`${server.url}/api/notes`)
    expect(listed.status).toBe(200)
    expect(await listed.json()).toEqual({ notes: [note] })

    const form = await fetch(`${server.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ title: 'From the form', body: '' }).toString(),
      redirect: 'manual',
    })
    expect(form.status).toBe(303)
    expect(form.headers.get('location')).toBe('/notes')
    expect(await (await fetch(`${server.url}/notes`)).text()).toMatch(/<p class="count">2 notes<\/p>/)

    const refused = await fetch(`${server.url}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: '' }),
    })
    expect(refused.status).toBe(422)
    expect(await refused.json()).toEqual({ errors: { title: ["can't be blank"] } })
  } finally {
    await server.stop()
  }
  // Read once the server has exited: a warning reaches stderr after the reply that caused it.
  return server.output()
}

describe('the 0.1 starter, unchanged, on this release', { timeout: 600_000 }, () => {
  beforeAll(() => useFixture())

  test('vite build succeeds', async () => {
    expect(await npx(app, 'vite', ['build'])).toMatch(/dist\/server\/index\.mjs/)
  })

  test("vitest run passes the app's own tests, and names the old forms it used", async () => {
    const out = await npx(app, 'vitest', ['run'])
    expect(out).toMatch(/Tests\s+\d+ passed/)
    expect(out).not.toMatch(/\bfailed\b/)
    // Its tests reach every old form but `status(422, {}, …)` (their note without a title is refused
    // by the route's schema, before the controller).
    expect(codes(out)).toEqual([
      'VELA_DEP_DBL_READ_RESULT',
      'VELA_DEP_JSON_POSITIONAL',
      'VELA_DEP_REDIRECT_STATUS',
      'VELA_DEP_REQUEST_PLUGIN_OPTIONS',
    ])
  })

  test('the built server answers the pages and the API, warning once per old form on stderr', async () => {
    const out = await serveAndUse()
    expect(codes(out)).toEqual([
      'VELA_DEP_DBL_READ_RESULT',
      'VELA_DEP_JSON_POSITIONAL',
      'VELA_DEP_REDIRECT_STATUS',
      'VELA_DEP_REQUEST_PLUGIN_OPTIONS',
      'VELA_DEP_STATUS_POSITIONAL',
    ])
    // Once each, however many requests used the form.
    expect(out.match(/VELA_DEP_DBL_READ_RESULT/g)).toHaveLength(1)
    expect(out).toContain('read them directly instead of .ok and .value')
  })
})

describe('the 0.1 starter upgraded as the CHANGELOG says', { timeout: 600_000 }, () => {
  beforeAll(() => useFixture('starter-0.1-upgraded'))

  test('tsc --noEmit type-checks it', async () => {
    await npx(app, 'tsc', ['--noEmit'])
  })

  test('vite build succeeds', async () => {
    expect(await npx(app, 'vite', ['build'])).toMatch(/dist\/server\/index\.mjs/)
  })

  test("vitest run passes the app's tests with no deprecation warning", async () => {
    const out = await npx(app, 'vitest', ['run'])
    expect(out).toMatch(/Tests\s+\d+ passed/)
    expect(out).not.toMatch(DEPRECATION)
  })

  test('the built server answers the same requests and prints no deprecation', async () => {
    expect(await serveAndUse()).not.toMatch(DEPRECATION)
  })
})
