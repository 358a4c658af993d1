// Standard Schema objects in `validate`: zod and valibot schemas, and a library whose validate
// returns a promise. Query and path values reach them as strings: they coerce with their own means.
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { z } from 'zod'
import { describeModes } from '../../test/support/modes.ts'
import type { StandardSchemaV1 } from '../contracts/standard-schema.ts'
import { requestPlugin } from '../plugins/request.ts'
import { json } from '../replies.ts'
import type { VelaRequest } from '../request.ts'

const zodNote = z.object({ title: z.string().min(1), tags: z.array(z.object({ name: z.string() })).default([]) })
const zodPage = z.object({ limit: z.coerce.number().int().max(50), archived: z.stringbool().optional() })
const valibotNote = v.object({
  title: v.pipe(v.string(), v.minLength(1, 'is blank')),
  tags: v.array(v.object({ name: v.string('must be a string') })),
})
const valibotId = v.object({ id: v.pipe(v.string(), v.transform(Number), v.integer('must be an integer')) })

/** A hand-made Standard Schema whose check is asynchronous (as one looking a value up would be). */
const reservedNames = new Set(['admin'])
const asyncUsername: StandardSchemaV1<unknown, { name: string }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: async (value) => {
      await new Promise((resolve) => setImmediate(resolve))
      const name = (value as { name?: unknown } | null)?.name
      if (typeof name !== 'string') return { issues: [{ message: 'must be a string', path: [{ key: 'name' }] }] }
      if (reservedNames.has(name)) return { issues: [{ message: 'is taken', path: ['name'] }] }
      return { value: { name: name.toLowerCase() } }
    },
  },
}

let handled = 0
const echo = (req: VelaRequest) => {
  handled++
  return json({ json: req.json ?? null, query: req.query, bindings: req.bindings })
}

describeModes(
  'route validation with Standard Schema objects',
  {
    bootstrapApplication: 'standard',
    routes: {
      api: {
        prefix: '/api',
        security: false,
        plugins: [requestPlugin({ json: true })],
        routes: [
          ['POST /zod/notes', echo, { validate: { body: zodNote, query: zodPage } }],
          ['PUT /valibot/notes/:id', echo, { validate: { body: valibotNote, params: valibotId } }],
          ['POST /users', echo, { validate: { body: asyncUsername } }],
        ],
      },
    },
  },
  (t) => {
    it('zod: the handler sees the parsed values (defaults, coerced query)', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/zod/notes?limit=10&archived=true',
        body: { title: 'x' },
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ json: { title: 'x', tags: [] }, query: { limit: 10, archived: true } })
    })
    it('zod: issues become field errors with dotted paths, query and body together', async () => {
      const before = handled
      const res = await t.request({
        method: 'POST',
        url: '/api/zod/notes?limit=99',
        body: { title: '', tags: [{ name: 'a' }, { name: 3 }] },
      })
      expect(res.status).toBe(422)
      const { errors } = await res.json()
      expect(Object.keys(errors).sort()).toEqual(['limit', 'tags.1.name', 'title'])
      expect(errors['tags.1.name'][0]).toMatch(/string/)
      expect(handled).toBe(before)
    })
    it('valibot: path parameters and body', async () => {
      const ok = await t.request({
        method: 'PUT',
        url: '/api/valibot/notes/7',
        body: { title: 't', tags: [{ name: 'n' }] },
      })
      expect(ok.status).toBe(200)
      expect(await ok.json()).toMatchObject({ bindings: { id: 7 }, json: { title: 't', tags: [{ name: 'n' }] } })
      const bad = await t.request({
        method: 'PUT',
        url: '/api/valibot/notes/1.5',
        body: { title: '', tags: [{ name: 1 }] },
      })
      expect(bad.status).toBe(422)
      expect(await bad.json()).toEqual({
        errors: { id: ['must be an integer'], title: ['is blank'], 'tags.0.name': ['must be a string'] },
      })
    })
    it('an asynchronous Standard Schema is awaited: its value reaches the handler, its issues are a 422', async () => {
      const ok = await t.request({ method: 'POST', url: '/api/users', body: { name: 'Ada' } })
      expect(ok.status).toBe(200)
      expect((await ok.json()).json).toEqual({ name: 'ada' })
      const before = handled
      const taken = await t.request({ method: 'POST', url: '/api/users', body: { name: 'admin' } })
      expect(taken.status).toBe(422)
      expect(await taken.json()).toEqual({ errors: { name: ['is taken'] } })
      expect(handled).toBe(before)
    })
  },
)
