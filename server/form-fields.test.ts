// Counting URL-encoded fields against the cap: what counts as a field, and the edges.
import { describe, expect, it } from 'vitest'
import { formFields, hasMoreFields } from './form-fields.ts'

describe('hasMoreFields', () => {
  it('counts the non-empty pieces between & (from an offset past a query ?)', () => {
    expect(hasMoreFields('a=1&b=2&c', 2)).toBe(true)
    expect(hasMoreFields('a=1&b=2&c', 3)).toBe(false)
    expect(hasMoreFields('a&&&&b&&&&c', 2)).toBe(true)
    expect(hasMoreFields('&&&&&&&&&&', 2)).toBe(false)
    expect(hasMoreFields('=&=&=', 2)).toBe(true)
    expect(hasMoreFields('?a&b&c', 2, 1)).toBe(true)
    expect(hasMoreFields('?a&b', 1, 1)).toBe(true)
    expect(hasMoreFields('?ab&', 1, 1)).toBe(false)
  })

  it('stops at the first field over the cap: a huge text costs no more than the cap', () => {
    const huge = 'a&'.repeat(5_000_000)
    const start = performance.now()
    for (let i = 0; i < 100; i++) expect(hasMoreFields(huge, 1000)).toBe(true)
    // 100 scans of a 10 MB text would take seconds; 100 scans of 2 KB take well under one.
    expect(performance.now() - start).toBeLessThan(1000)
  })
})

describe('formFields', () => {
  it('repeated fields become arrays in order; unsafe keys are dropped; own keys only', () => {
    expect(formFields('a=1&b=2&a=3&a=4&toString=x&__proto__=p&constructor=c', 10)).toEqual({
      a: ['1', '3', '4'],
      b: '2',
      toString: 'x',
    })
  })
  it('more than the cap is a 413 naming it', () => {
    expect(() => formFields('a&b&c', 2)).toThrow(
      expect.objectContaining({ status: 413, message: 'Payload Too Large: the form has more than 2 fields' }),
    )
  })
})
