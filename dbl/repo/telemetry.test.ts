// The query span as an exporter receives it, for a statement that answers and for one that fails:
// outside any request the SDK's sampler decides (here: always on). Real SDK, in-memory exporter.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { finishedSpans, useInMemorySpans } from '../../telemetry/test-support.ts'
import type { Adapter, Row } from '../adapters/adapter.ts'
import { defineRepo } from '../repo.ts'

class ConnectionGone extends Error {}

/** Two rows for any statement but one naming `gone`, which fails the way a lost connection does. */
const adapter: Adapter = {
  kind: 'pg',
  query: async <R extends Row>(sql: string) => {
    if (sql.includes('gone')) throw new ConnectionGone('connection gone')
    return { rows: [{ n: 1 }, { n: 2 }] as Row[] as R[], rowCount: 2 }
  },
  transaction: (fn) => fn(adapter),
  session: (fn) => fn(adapter),
  close: async () => {},
}
const repo = defineRepo({ adapter, name: 'Shop.Repo' })
const exporter = useInMemorySpans()

describe('query spans', () => {
  it('a statement that answers: a client span with the statement and the rows it returned', async () => {
    const res = await repo.query('SELECT n FROM t')
    expect(res.ok && res.value.rows).toEqual([{ n: 1 }, { n: 2 }])
    const [span] = await finishedSpans(exporter, 1)
    expect(span!.name).toBe('db.query')
    expect(span!.kind).toBe(SpanKind.CLIENT)
    expect(span!.attributes).toEqual({
      'db.system': 'postgresql',
      'db.statement': 'SELECT n FROM t',
      'vela.repo': 'Shop.Repo',
      'db.response.returned_rows': 2,
    })
    expect(span!.status.code).toBe(SpanStatusCode.UNSET)
    expect(span!.events).toEqual([])
  })

  it('a statement that fails: the error reaches the caller, the span ends with its message and an exception event', async () => {
    await expect(repo.query('SELECT gone')).rejects.toBeInstanceOf(ConnectionGone)
    const [span] = await finishedSpans(exporter, 1)
    expect(span!.name).toBe('db.query')
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'connection gone' })
    // Not an error the server raised: the error's name is its type, and there is no status code.
    expect(span!.attributes).toEqual({
      'db.system': 'postgresql',
      'db.statement': 'SELECT gone',
      'vela.repo': 'Shop.Repo',
      'error.type': 'Error',
    })
    expect(span!.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([
      ['exception', 'connection gone'],
    ])
    expect(span!.ended).toBe(true)
  })
})
