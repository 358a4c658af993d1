/**
 * A steady mix of repository operations from `workers` concurrent loops, every one recorded
 * (start, end, outcome, the values it wrote), for the fault cases to check what happened around a
 * fault: single inserts, two-row transactions and reads, in turn. A failed operation is followed
 * by a 5 ms pause, so a refused database is not hammered in a tight loop.
 */
import { change } from '../../dbl/changeset.ts'
import { from } from '../../dbl/query/builder.ts'
import type { Repo } from '../../dbl/repo.ts'
import { defineSchema } from '../../dbl/schema.ts'

/** `items (id bigserial primary key, n integer not null unique)` */
export const Item = defineSchema({ table: 'items', fields: { id: 'id', n: { type: 'integer', nullable: false } } })

export interface Op {
  readonly kind: 'insert' | 'transaction' | 'read'
  readonly start: number
  end: number
  outcome: 'ok' | 'error'
  error: unknown
  /** Values of `n` written (reported written when `outcome` is ok). */
  readonly wrote: number[]
}

export interface LoadStats {
  readonly ok: number
  okSince(t: number): number
  failedSince(t: number): number
}

export function driveLoad(repo: Repo, workers: number, boundMs = 15_000) {
  const schema = Item
  const ops: Op[] = []
  let next = 0
  let running = true
  const waiters = new Set<() => void>()
  const stats: LoadStats = {
    get ok() {
      return ops.filter((o) => o.end && o.outcome === 'ok').length
    },
    okSince: (t) => ops.filter((o) => o.end && o.start >= t && o.outcome === 'ok').length,
    failedSince: (t) => ops.filter((o) => o.end >= t && o.outcome === 'error').length,
  }

  async function one(kind: Op['kind']): Promise<void> {
    const op: Op = { kind, start: performance.now(), end: 0, outcome: 'ok', error: undefined, wrote: [] }
    ops.push(op)
    try {
      if (kind === 'insert') {
        op.wrote.push(++next)
        const r = await repo.insert(change(schema, {}, { n: op.wrote[0]! }))
        if (!r.ok) throw new Error(`insert refused: ${JSON.stringify(r.error)}`)
      } else if (kind === 'transaction') {
        op.wrote.push(++next, ++next)
        const r = await repo.transaction(async (tx) => {
          for (const n of op.wrote) {
            const w = await tx.insert(change(schema, {}, { n }))
            if (!w.ok) throw new Error(`insert refused: ${JSON.stringify(w.error)}`)
          }
        })
        if (!r.ok) throw new Error(`transaction rolled back: ${JSON.stringify(r.error)}`)
      } else {
        await repo.count(from(schema))
      }
    } catch (error) {
      op.outcome = 'error'
      op.error = error
    }
    op.end = performance.now()
    for (const w of waiters) w()
    if (op.outcome === 'error') await new Promise((r) => setTimeout(r, 5))
  }

  const kinds: Op['kind'][] = ['insert', 'read', 'transaction', 'read']
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = w; running; i++) await one(kinds[i % kinds.length]!)
  })

  return {
    /** Resolves once `pred(stats)` holds after an operation ends; rejects after `boundMs`. */
    until(pred: (s: LoadStats) => boolean): Promise<void> {
      if (pred(stats)) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`load: condition not reached within ${boundMs} ms (${stats.ok} ok of ${ops.length})`))
        }, boundMs)
        const check = () => {
          if (!pred(stats)) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
      })
    },
    /** Stops the loops after their current operation; resolves to every operation. */
    async stop(): Promise<Op[]> {
      running = false
      await Promise.all(loops)
      return ops
    },
  }
}
