/**
 * A `DbError` a handler lets through (a read throws it; a write's `if (!res.ok) throw res.error`,
 * the usual pattern): a value the database refused (a malformed uuid in a `where`) answers 400
 * with the database's message,
 * unlogged; any other database error is a logged 500 whose log line names `DbError` and whose
 * development page (`useStacktrace`) shows the stack down to the handler's line. Both modes
 * (in-process and over HTTP), on an embedded PGlite in memory.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cast } from '../../dbl/changeset.ts'
import { from } from '../../dbl/query/builder.ts'
import { defineRepo } from '../../dbl/repo.ts'
import { defineSchema } from '../../dbl/schema.ts'
import { json, type VelaRequest } from '../../server/index.ts'
import { describeModes } from '../support/modes.ts'

const Ticket = defineSchema({ table: 'tickets', fields: { id: { type: 'uuid', primaryKey: true }, n: 'integer' } })
const repo = defineRepo({ url: 'memory:' })

async function tickets(req: VelaRequest) {
  return json({ tickets: await repo.all(from(Ticket).where({ id: String(req.query.id) })) })
}

// A table no migration created: the read throws a DbError (42P01).
const Missing = defineSchema({ table: 'missing_tickets', fields: { id: 'id' } })
async function missing() {
  return json({ rows: await repo.all(from(Missing)) })
}

async function overflow() {
  // The CHECK (n >= 0) is the database's, declared to no changeset.
  const res = await repo.insert(cast(Ticket, null, { n: -1 }, ['n']))
  if (!res.ok) throw res.error
  return json(res.value)
}

/** An HTTP client's error carrying the upstream's status, not meant as this app's answer. */
function upstream(): never {
  throw Object.assign(new Error('the catalogue service answered 404'), { status: 404 })
}

beforeAll(async () => {
  await repo.query('create table tickets (id uuid primary key default gen_random_uuid(), n integer check (n >= 0))')
}, 60_000)
afterAll(() => repo.stop())

describeModes(
  'a DbError thrown by a handler',
  {
    bootstrapApplication: 'db-errors',
    useStacktrace: true,
    routes: {
      r: {
        prefix: '',
        security: false,
        plugins: [],
        routes: [
          ['GET /tickets', tickets],
          ['POST /overflow', overflow],
          ['GET /upstream', upstream],
          ['GET /missing', missing],
        ],
      },
    },
  },
  (t) => {
    it("a malformed uuid in a where is a 400 with the database's message, not logged", async () => {
      const res = await t.request('/tickets?id=nope')
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: 'invalid input syntax for type uuid: "nope"' })
      const fine = await t.request('/tickets?id=00000000000040008000000000000001')
      expect([fine.status, await fine.json()]).toEqual([200, { tickets: [] }])
    })

    it("another database error is a 500 logged as a DbError, its page showing the handler's line", async () => {
      t.expectLogged(/^500 on POST \/overflow .*: DbError: .*tickets_n_check/)
      const res = await t.request({ method: 'POST', url: '/overflow' })
      expect(res.status).toBe(500)
      const body = (await res.json()) as { error: string; stack: string[] }
      expect(body.error).toMatch(/tickets_n_check/)
      expect(body.stack[0]).toMatch(/^DbError: .*tickets_n_check/)
      expect(body.stack.some((line) => line.includes('db-errors.test.ts'))).toBe(true)
    })

    it('a read that fails throws its DbError: a logged 500 naming it', async () => {
      t.expectLogged(/^500 on GET \/missing .*: DbError: .*missing_tickets/)
      const res = await t.request('/missing')
      expect(res.status).toBe(500)
      const body = (await res.json()) as { error: string; stack: string[] }
      expect(body.stack[0]).toMatch(/^DbError: relation "missing_tickets" does not exist/)
    })

    it('an error with a status but no expose is not taken as the answer: a logged 500', async () => {
      t.expectLogged(/^500 on GET \/upstream .*the catalogue service answered 404/)
      expect((await t.request('/upstream')).status).toBe(500)
    })
  },
)
