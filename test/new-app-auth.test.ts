/**
 * `vela gen auth` as a new user gets it, from the packed package: the templates ship in the
 * tarball; the command writes the accounts into a new app (and refuses to run twice); `vela
 * migrations generate` writes the users and users_tokens migration from the generated schemas and
 * `vela migrate` applies it; the app type-checks (`tsc --noEmit`; the starter has no linter, and
 * the templates pass this repository's Biome rules in `npm run lint`) and its own vitest runs the
 * generated account tests, with no deprecated form used; `vela audit`, `vela plugins` and the OpenAPI
 * document show the generated groups' security.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CORE_PART } from '../vite-plugin/cli/commands/gen-auth/parts.ts'
import { npx } from './support/new-app.ts'
import { newApp } from './support/new-app-cache.ts'

const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

let app: string
let paths: readonly string[]
let generated: string

describe('vela gen auth in a new app from the packed package', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const made = await newApp('vela-newapp-auth-')
    cleanup.push(() => made.remove())
    app = made.app
    paths = made.packed.paths
    generated = await npx(app, 'vela', ['gen', 'auth'])
  }, 900_000)

  test('the package ships every template file', () => {
    const missing = CORE_PART.files.filter(
      (f) => !paths.includes(`dist/vite-plugin/cli/commands/gen-auth/template/core/${f}`),
    )
    expect(missing).toEqual([])
  })

  test('writes the files, prints them and the next steps; a second run writes nothing (exit 1)', async () => {
    for (const f of CORE_PART.files) expect(generated).toContain(`Generated ${f}\n`)
    expect(generated).toContain('npx vela migrations generate')
    await expect(npx(app, 'vela', ['gen', 'auth'])).rejects.toThrow(
      /these files already exist: src\/schemas\/user\.ts, .*; nothing was written/,
    )
  })

  test('`vela migrations generate` writes the tables, `vela migrate` applies them', async () => {
    const out = await npx(app, 'vela', ['migrations', 'generate'])
    const file = /src\/migrations\/(m\d{14}_update_schema\.ts)/.exec(out)?.[1]
    expect(file, out).toBeDefined()
    const migration = readFileSync(join(app, 'src/migrations', file!), 'utf8')
    expect(migration).toContain("createTable('users', [")
    expect(migration).toContain(
      "{ name: 'user_id', type: 'integer', nullable: false, references: { table: 'users', onDelete: 'cascade' } }",
    )
    expect(migration).toContain("createIndex('users', ['email'], { unique: true, name: 'users_email_index' })")
    expect(readdirSync(join(app, 'src/migrations'))).toHaveLength(2)
    expect(await npx(app, 'vela', ['migrate'])).toMatch(/migrated \d{14} update_schema/)
    // Nothing left to generate.
    expect(await npx(app, 'vela', ['migrations', 'generate'])).not.toMatch(/Generated/)
  })

  test('the app type-checks (tsc --noEmit)', async () => {
    await npx(app, 'tsc', ['--noEmit'])
  })

  test("the app's own vitest runs the generated account tests", async () => {
    const out = await npx(app, 'vitest', ['run'])
    for (const [file, count] of [
      ['register', 5],
      ['log-in', 8],
      ['links', 7],
      ['settings', 5],
      ['rate-limits', 4],
    ] as const)
      expect(out).toMatch(new RegExp(`test/auth/${file}\\.test\\.ts \\(${count} tests\\)`))
    expect(out).toMatch(/Tests\s+36 passed \(36\)/)
    // The generated code uses no deprecated form (a warning would name it).
    expect(out).not.toMatch(/VELA_DEP_|DeprecationWarning/)
  })

  test('vela audit finds no open account route and lists each with its security; so does vela plugins', async () => {
    const audit = JSON.parse(
      await npx(app, 'vela', ['audit', '--json']).catch((e: Error) => e.message.slice(e.message.indexOf('{'))),
    ) as {
      warnings: { path: string }[]
      info: { path: string }[]
      secured: { method: string; path: string; security: string; scheme?: string }[]
    }
    expect([...audit.warnings, ...audit.info].filter((f) => f.path.startsWith('/users'))).toEqual([])
    const guard = (method: string, path: string) => audit.secured.find((r) => r.method === method && r.path === path)
    expect(guard('GET', '/users/settings')).toMatchObject({ security: 'requireUser', scheme: 'userSession' })
    expect(guard('POST', '/users/log-in')).toMatchObject({ security: 'guestOnly' })
    expect(audit.secured.filter((r) => r.security === 'requireSudo').length).toBeGreaterThan(0)
    const { groups } = JSON.parse(await npx(app, 'vela', ['plugins', '--json'])) as {
      groups: { prefix: string; security: string | false }[]
    }
    expect(groups.filter((g) => g.prefix === '/users').map((g) => g.security)).toEqual([
      'guestOnly',
      'guestOnly',
      'guestOnly',
      'requireUser',
      'requireUser',
      'requireSudo',
    ])
  })

  test('the OpenAPI document declares the session cookie for requireUser and requireSudo routes', async () => {
    await npx(app, 'vela', ['openapi', '--output', 'openapi.json'])
    const doc = JSON.parse(readFileSync(join(app, 'openapi.json'), 'utf8')) as {
      components: { securitySchemes: Record<string, unknown> }
      paths: Record<string, Record<string, { security?: unknown }>>
    }
    expect(doc.components.securitySchemes).toMatchObject({
      userSession: { type: 'apiKey', in: 'cookie', name: 'user_session' },
      userSudoSession: { type: 'apiKey', in: 'cookie', name: 'user_session' },
    })
    expect(doc.paths['/users/settings']?.get?.security).toEqual([{ userSession: [] }])
    expect(doc.paths['/users/settings/email']?.post?.security).toEqual([{ userSudoSession: [] }])
    expect(doc.paths['/users/log-in']?.post?.security).toBeUndefined()
  })
})
