// Where named schemas come from, and the start-up errors for schemas a route cannot use.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AppConfig } from '../app/config.ts'
import { createApp } from '../app/create-app.ts'
import type { RouteValidation } from '../contracts/routes.ts'
import { isVelaError } from '../errors/vela-error.ts'
import { json } from '../replies.ts'
import { inject } from '../testing/inject.ts'

const app = (validate: RouteValidation): AppConfig => ({
  bootstrapApplication: 'schemas',
  routes: {
    api: {
      prefix: '/api',
      security: false,
      routes: [['/things/:id', (req) => json({ id: req.bindings.id }), { methods: ['get', 'post'], validate }]],
    },
  },
})

function startError(fn: () => unknown): Error {
  try {
    fn()
  } catch (err) {
    return err as Error
  }
  throw new Error('expected the app not to start')
}

describe('named schemas', () => {
  const root = mkdtempSync(join(tmpdir(), 'vela-schemas-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'priv/schemas'), { recursive: true })
  writeFileSync(
    join(root, 'priv/schemas/thing_id.json'),
    JSON.stringify({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { id: { type: 'integer' } },
    }),
  )

  it('without schemas given, priv/schemas/*.json under the app root is read', async () => {
    const a = createApp(app({ params: 'thing_id' }), { env: {}, root })
    expect(await (await inject(a, '/api/things/3')).json()).toEqual({ id: 3 })
    expect((await inject(a, '/api/things/x')).status).toBe(422)
  })

  it('an unknown name stops the start with VELA_ERR_ROUTE naming the route and the file', () => {
    const err = startError(() => createApp(app({ body: 'thing' }), { env: {}, root }))
    expect(isVelaError(err, 'VELA_ERR_ROUTE')).toBe(true)
    expect(err.message).toBe(
      'api group 0 route 0 (/api/things/:id): validate.body names priv/schemas/thing.json, which does not exist (known: thing_id)',
    )
  })

  it('a schema that is neither a name nor a Standard Schema object stops the start', () => {
    const err = startError(() => createApp(app({ query: { type: 'object' } as never }), { env: {}, schemas: {} }))
    expect(err.message).toMatch(
      /^api group 0 route 0 \(\/api\/things\/:id\): validate\.query must be the name of a priv\/schemas\/<name>\.json file or a Standard Schema object/,
    )
  })

  it('a file that is not a JSON Schema stops the start, naming the file', () => {
    const err = startError(() =>
      createApp(app({ query: 'broken' }), { env: {}, schemas: { broken: { type: 'nonsense' } } }),
    )
    expect(isVelaError(err, 'VELA_ERR_ROUTE')).toBe(true)
    expect(err.message).toMatch(
      /^api group 0 route 0 \(\/api\/things\/:id\): validate\.query: priv\/schemas\/broken\.json is not a valid JSON Schema/,
    )
  })
})
