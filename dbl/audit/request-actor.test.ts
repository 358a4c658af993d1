/**
 * The actor of audit rows comes from the request: `auditActorHandler` opens a scope per request,
 * the group's security callback names the user with `setActor`, and the handler's writes record
 * it. Two requests at once keep their own actors. In-process and over real HTTP (describeModes).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createPgliteAdapter } from '../adapters/pglite.ts'
import type { Adapter } from '../adapters/adapter.ts'
import { cast } from '../changeset.ts'
import '../changeset-methods.ts'
import { operationsSql } from '../migrations/ddl.ts'
import { planMigration } from '../migrations/diff.ts'
import { modelFromSchemas } from '../migrations/model.ts'
import { defineRepo, type Repo } from '../repo.ts'
import { defineSchema } from '../schema.ts'
import { json, status } from '../../server/replies.ts'
import { defineStreamHandler } from '../../server/stream-handlers/stream-handlers.ts'
import { describeModes } from '../../test/support/modes.ts'
import { auditActorHandler, setActor } from './actor.ts'

const Note = defineSchema({ table: 'notes', fields: { id: 'id', body: 'text' }, audit: true })

let adapter: Adapter
// Made once the database is; the handler reads it at request time.
let repo: Repo

beforeAll(async () => {
  adapter = await createPgliteAdapter()
  // The tables as the generated migration makes them: the audit table comes with the audited schema.
  for (const sql of operationsSql(planMigration(new Map(), modelFromSchemas([Note])).up)) await adapter.query(sql)
  repo = defineRepo({ adapter })
})
afterAll(() => adapter.close())
beforeEach(async () => {
  await adapter.query('TRUNCATE notes, vela_audit RESTART IDENTITY')
})

const audit = async () =>
  (await adapter.query('SELECT record_id, action, actor, changes FROM vela_audit ORDER BY record_id')).rows

describeModes(
  'audit actor from the request',
  {
    bootstrapApplication: 'notes',
    server: { streamHandlers: [defineStreamHandler(auditActorHandler), 'default'] },
    routes: {
      notes: {
        prefix: '',
        security: (req) => {
          const user = req.headers.get('x-user')
          if (!user) return false
          setActor({ user })
          return { user }
        },
        routes: [
          [
            'POST /notes',
            async (req) => {
              const { body } = JSON.parse(await req.readBody()) as { body: string }
              // The request's actor survives awaits, and another request meanwhile.
              await new Promise((r) => setTimeout(r, body === 'slow' ? 30 : 1))
              const res = await repo.insert(cast(Note, null, { body }, ['body']))
              return res.ok ? json(res.value, { status: 201 }) : status(422)
            },
          ],
        ],
      },
    },
  },
  (t) => {
    const post = (user: string, body: string) =>
      t.request({ method: 'POST', url: '/notes', headers: { 'x-user': user }, body: { body } })

    it('the audit row names the user the security callback set', async () => {
      const res = await post('ada', 'hello')
      expect(res.status).toBe(201)
      expect(await audit()).toEqual([
        { record_id: '1', action: 'insert', actor: { user: 'ada' }, changes: { body: [null, 'hello'] } },
      ])
    })

    it('two requests at once each record their own actor', async () => {
      const [slow, fast] = await Promise.all([post('grace', 'slow'), post('linus', 'fast')])
      expect([slow.status, fast.status]).toEqual([201, 201])
      const byBody = Object.fromEntries(
        (await audit()).map((r) => [(r.changes as { body: [null, string] }).body[1], r.actor]),
      )
      expect(byBody).toEqual({ slow: { user: 'grace' }, fast: { user: 'linus' } })
    })

    it('a refused request writes nothing', async () => {
      const res = await t.request({ method: 'POST', url: '/notes', body: { body: 'x' } })
      expect(res.status).toBe(401)
      expect(await audit()).toEqual([])
    })
  },
)
