// Repeated log lines coalesced (coalesce-log.ts), on fake timers: what is written at once, what
// is counted, the summary when a window closes, the bound on kinds, and flush.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { coalesceLog, logKey } from './coalesce-log.ts'

let lines: [string, unknown][]
const sink = (message: string, error: unknown) => void lines.push([message, error])

beforeEach(() => {
  lines = []
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})
afterEach(() => vi.useRealTimers())

describe('coalesceLog', () => {
  it('the first line of a kind is written with its error; repeats within 10 s are one summary line when the window closes', () => {
    const { log } = coalesceLog(sink)
    const boom = new Error('kaboom')
    log('500 on GET /notes/1 (notes.show)', boom, '500 GET /notes/:id Error')
    for (let i = 2; i <= 524; i++)
      log(`500 on GET /notes/${i} (notes.show)`, new Error('kaboom'), '500 GET /notes/:id Error')
    expect(lines).toEqual([['500 on GET /notes/1 (notes.show)', boom]])
    vi.advanceTimersByTime(9_999)
    expect(lines).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(lines).toEqual([
      ['500 on GET /notes/1 (notes.show)', boom],
      ['500 on GET /notes/1 (notes.show) … and 523 more like this in the last 10 s', undefined],
    ])
    // A new window: the next line is written in full again.
    log('500 on GET /notes/9 (notes.show)', boom, '500 GET /notes/:id Error')
    expect(lines).toHaveLength(3)
  })

  it('kinds are counted apart; a line without a key is its own kind; a window with no repeats closes silently', () => {
    const { log } = coalesceLog(sink, { windowMs: 1000 })
    log('a', undefined, 'k1')
    log('b', undefined, 'k2')
    log('a again', undefined, 'k1')
    log('plain', undefined)
    log('plain', undefined)
    log('plain but other', undefined)
    expect(lines.map(([m]) => m)).toEqual(['a', 'b', 'plain', 'plain but other'])
    vi.advanceTimersByTime(1000)
    expect(
      lines
        .slice(4)
        .map(([m]) => m)
        .sort(),
    ).toEqual(['a … and 1 more like this in the last 1 s', 'plain … and 1 more like this in the last 1 s'])
  })

  it('at most maxKinds kinds are tracked: lines of further kinds are counted together, so the log stays bounded', () => {
    const { log } = coalesceLog(sink, { maxKinds: 3 })
    for (let i = 0; i < 1000; i++) log(`line ${i}`, undefined)
    expect(lines.map(([m]) => m)).toEqual(['line 0', 'line 1', 'line 2'])
    vi.advanceTimersByTime(10_000)
    expect(lines.slice(3)).toEqual([
      ['… and 997 more lines of other kinds in the last 10 s (over 3 kinds of line at once)', undefined],
    ])
  })

  it('flush writes the counts of open windows at once and closes them', () => {
    const { log, flush } = coalesceLog(sink)
    log('x', undefined)
    log('x', undefined)
    log('y', undefined)
    flush()
    expect(lines.map(([m]) => m)).toEqual(['x', 'y', 'x … and 1 more like this in the last 10 s'])
    vi.advanceTimersByTime(10_000)
    expect(lines).toHaveLength(3)
  })
})

describe('logKey', () => {
  it('names the error by its code, else its class', () => {
    expect(logKey('500 GET /a', new TypeError('x'))).toBe('500 GET /a TypeError')
    expect(logKey('503 GET /a', Object.assign(new Error('x'), { code: 'VELA_ERR_DB_UNAVAILABLE' }))).toBe(
      '503 GET /a VELA_ERR_DB_UNAVAILABLE',
    )
    expect(logKey('500 GET /a', 'a string')).toBe('500 GET /a String')
    expect(logKey('500 GET /a', null)).toBe('500 GET /a object')
    expect(logKey('499 GET /a', undefined)).toBe('499 GET /a')
  })
})
