import { describe, expect, it } from 'vitest'
import { POSTGRES_URL, serviceAvailable } from '../../test/support/services.ts'
import { resolveDeadlines } from '../deadlines.ts'
import { defineRepo } from '../repo.ts'
import { classify, DbOutcomeUnknownError, DbUnavailableError, unanswered } from '../unavailable.ts'
import { createPgAdapter } from './pg.ts'
import { createTurns } from './turns.ts'

const d = resolveDeadlines({})

describe('deadlines and DbUnavailableError', () => {
  it('defaults, validation naming the key, and the answer deadline a grace after the statement timeout', () => {
    expect(d).toEqual({
      connectTimeoutMs: 5000,
      acquireTimeoutMs: 5000,
      statementTimeoutMs: 30_000,
      idleTimeoutMs: 10_000,
      answerTimeoutMs: 31_000,
    })
    expect(resolveDeadlines({ statementTimeoutMs: 0 }).answerTimeoutMs).toBe(0)
    expect(() => defineRepo({ url: 'postgres://h/db', statementTimeoutMs: -1 })).toThrow(
      'defineRepo: statementTimeoutMs must be a whole number of milliseconds (0 = no deadline), got -1',
    )
    expect(() => defineRepo({ acquireTimeoutMs: 1.5 })).toThrow(expect.objectContaining({ code: 'VELA_ERR_CONFIG' }))
    expect(() => defineRepo({ startRetry: { attempts: 0 } })).toThrow(
      'defineRepo: startRetry.attempts must be a whole number ≥ 1, got 0',
    )
  })

  it('driver failures about availability become DbUnavailableError (503, a code, host:port); statement errors do not', () => {
    const at = (e: unknown) => classify(e, 'db:5432', d)
    expect(at(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toMatchObject({
      reason: 'unreachable',
      status: 503,
      code: 'VELA_ERR_DB_UNAVAILABLE',
      message: 'database db:5432: unreachable: connection refused (ECONNREFUSED)',
    })
    expect(at(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toMatchObject({
      reason: 'unreachable',
    })
    expect(at(new Error('Connection terminated unexpectedly'))).toMatchObject({ reason: 'connection_lost' })
    expect(at(new Error('timeout exceeded when trying to connect'))).toMatchObject({ reason: 'acquire_timeout' })
    expect(
      at(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })),
    ).toMatchObject({ reason: 'statement_timeout' })
    expect(at(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toMatchObject({
      reason: 'server_unavailable',
    })
    expect(at(Object.assign(new Error('canceling statement due to user request'), { code: '57014' }))).toBeUndefined()
    expect(at(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined()
    expect(at(new TypeError('a bug'))).toBeUndefined()
  })

  it('a statement sent and never answered has an unknown outcome (504); one the server cancelled, or pg never sent, does not', () => {
    const sent = (e: Error) => unanswered(e, classify(e, 'db:5432', d)!)
    expect(sent(new Error('Query read timeout'))).toBe(true)
    expect(sent(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(sent(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true)
    // The server's own answer: it cancelled the statement (rolled back), or it is shutting down.
    expect(sent(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe(
      false,
    )
    expect(
      sent(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
    ).toBe(false)
    // pg refuses to send on a client whose connection already failed.
    expect(sent(new Error('Client has encountered a connection error and is not queryable'))).toBe(false)
    expect(sent(new Error('timeout exceeded when trying to connect'))).toBe(false)
    const unknown = new DbOutcomeUnknownError(classify(new Error('Query read timeout'), 'db:5432', d)!)
    expect(unknown).toBeInstanceOf(DbUnavailableError)
    expect(unknown).toMatchObject({
      name: 'DbOutcomeUnknownError',
      status: 504,
      code: 'VELA_ERR_DB_OUTCOME_UNKNOWN',
      reason: 'statement_timeout',
      address: 'db:5432',
    })
    expect(unknown.message).toBe(
      'database db:5432: no answer within 31000 ms (statementTimeoutMs 30000 + 1000 ms grace); the statement was sent and may have been applied',
    )
  })

  it('turns: one at a time, in order; a waiter past the bound is dropped and never runs', async () => {
    const turn = createTurns(50, () => new Error('waited too long'))
    const ran: string[] = []
    let release!: () => void
    const first = turn(() => new Promise<void>((r) => (release = r)).then(() => void ran.push('first')))
    const late = turn(async () => void ran.push('late'))
    await expect(late).rejects.toThrow('waited too long')
    const next = turn(async () => void ran.push('next'))
    release()
    await Promise.all([first, next])
    expect(ran).toEqual(['first', 'next'])
  })
})

describe.skipIf(!(await serviceAvailable('postgres')))('pg deadlines on the shared server', () => {
  it('a statement past statementTimeoutMs is cancelled by the server and thrown as DbUnavailableError; a session has no statement deadline', async () => {
    const a = createPgAdapter({ url: POSTGRES_URL, poolSize: 1, statementTimeoutMs: 100 })
    // The server answered (57014): rolled back, so a plain 503 even for raw SQL.
    await expect(a.query('select pg_sleep(1)')).rejects.toMatchObject({
      reason: 'statement_timeout',
      status: 503,
      message: expect.stringContaining('statement cancelled after 100 ms'),
    })
    expect(await a.session((c) => c.query('select pg_sleep(0.3) as slept'))).toMatchObject({ rows: [{ slept: '' }] })
    // The session's connection went back to the pool with the deadline restored.
    expect((await a.query('show statement_timeout')).rows).toEqual([{ statement_timeout: '100ms' }])
    await a.close()
  })

  it('repo.start does not retry a server that refuses the client: one line with its message', async () => {
    const url = new URL(POSTGRES_URL)
    url.pathname = '/vela_no_such_database'
    const repo = defineRepo({ url: url.toString() })
    const started = repo.start()
    await expect(started).rejects.toBeInstanceOf(DbUnavailableError)
    await expect(started).rejects.toMatchObject({
      reason: 'refused',
      message: `database ${url.host}: database "vela_no_such_database" does not exist (3D000)`,
    })
  })
})
