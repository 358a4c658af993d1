// The keys dropped from decoded input (unsafe-keys.ts); over HTTP: request.test.ts, test/faults/input.test.ts.
import { describe, expect, it } from 'vitest'
import { dropUnsafeFlatKeys, dropUnsafeKeys, jsonMayHaveUnsafeKeys } from './unsafe-keys.ts'

describe('unsafe keys', () => {
  it('the JSON gate: the names, or an escape that could spell one; plain bodies skip the walk', () => {
    for (const text of [
      '{"__proto__":1}',
      '{"constructor":1}',
      '{"prototype":1}',
      '{"\\u005f_proto__":1}',
      '{"\\u0063onstructor":1}',
      '{"\\u0070rototype":1}',
    ]) {
      expect(jsonMayHaveUnsafeKeys(text), text).toBe(true)
    }
    for (const text of ['{"name":"Widget","price":1999}', '{"text":"caf\\u00e9 \\u00e8"}', '[1,2,3]']) {
      expect(jsonMayHaveUnsafeKeys(text), text).toBe(false)
    }
  })

  it('the walk: every depth, arrays included, the rest untouched, values named like keys kept', () => {
    const value = JSON.parse(
      '{"\\u005f_proto__":{"isAdmin":true},"a":[{"constructor":{"prototype":{}},"b":1},["prototype"]],"c":{"d":{"prototype":2,"e":3}}}',
    )
    dropUnsafeKeys(value)
    expect(value).toEqual({ a: [{ b: 1 }, ['prototype']], c: { d: { e: 3 } } })
    expect(Object.getPrototypeOf(Object.assign({}, value))).toBe(Object.prototype)
  })

  it('the walk is iterative and visits an object once: deep nesting and cycles end', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}{"__proto__":1}${']'.repeat(100_000)}`)
    expect(() => dropUnsafeKeys(deep)).not.toThrow()
    const cyclic: Record<string, unknown> = { constructor: 1, keep: 2 }
    cyclic.self = cyclic
    dropUnsafeKeys(cyclic)
    expect(Object.keys(cyclic)).toEqual(['keep', 'self'])
    dropUnsafeKeys('scalar')
  })

  it('a flat record (a parsed query) loses the three keys only', () => {
    const query: Record<string, unknown> = Object.assign(Object.create(null), {
      q: '1',
      constructor: 'c',
      prototype: ['a', 'b'],
    })
    Object.defineProperty(query, '__proto__', { value: ['x'], enumerable: true, configurable: true, writable: true })
    dropUnsafeFlatKeys(query)
    expect({ ...query }).toEqual({ q: '1' })
  })
})
