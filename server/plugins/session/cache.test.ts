// The unseal cache of the session plugin: bounded, never serves an expired session, hands out copies.
import { describe, expect, it } from 'vitest'
import { SessionCache } from './cache.ts'

describe('SessionCache', () => {
  it('hands out a fresh copy of the data on every hit', () => {
    const cache = new SessionCache()
    cache.set('sealed-a', { id: 'a', createdAt: 1, data: { cart: [1] } })
    const first = cache.get('sealed-a')!
    ;(first.data.cart as number[]).push(2)
    expect(cache.get('sealed-a')).toEqual({ id: 'a', createdAt: 1, data: { cart: [1] } })
    expect(cache.get('sealed-b')).toBeUndefined()
  })

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new SessionCache(3)
    for (const k of ['a', 'b', 'c']) cache.set(k, { id: k, createdAt: 0, data: {} })
    cache.get('a')
    cache.set('d', { id: 'd', createdAt: 0, data: {} })
    expect(cache.size).toBe(3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')?.id).toBe('a')
  })

  it('never serves a session older than maxAge', () => {
    const cache = new SessionCache(10, 60)
    cache.set('s', { id: 's', createdAt: 1_000, data: {} })
    expect(cache.get('s', 1_000 + 59_000)?.id).toBe('s')
    expect(cache.get('s', 1_000 + 61_000)).toBeUndefined()
  })
})
