// The unseal cache of the session plugin: bounded, never serves an expired session, hands out copies.
import { describe, expect, it } from 'vitest'
import { SessionCache } from './cache.ts'

const session = (id: string, data: Record<string, unknown> = {}) => ({ id, createdAt: 1, seenAt: 2, data })

describe('SessionCache', () => {
  it('hands out a fresh copy of the data on every hit', () => {
    const cache = new SessionCache()
    cache.set('sealed-a', session('a', { cart: [1] }), Infinity)
    const first = cache.get('sealed-a')!
    ;(first.data.cart as number[]).push(2)
    expect(cache.get('sealed-a')).toEqual(session('a', { cart: [1] }))
    expect(cache.get('sealed-b')).toBeUndefined()
  })

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new SessionCache(3)
    for (const k of ['a', 'b', 'c']) cache.set(k, session(k), Infinity)
    cache.get('a')
    cache.set('d', session('d'), Infinity)
    expect(cache.size).toBe(3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.id).toBe('a')
  })

  it('never serves a session at or after its end of life, and forgets it', () => {
    const cache = new SessionCache(10)
    cache.set('s', session('s'), 60_000)
    expect(cache.get('s', 59_999)?.id).toBe('s')
    expect(cache.get('s', 60_000)).toBeUndefined()
    expect(cache.size).toBe(0)
  })
})
