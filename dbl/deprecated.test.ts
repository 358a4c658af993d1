import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { forgetDeprecationWarnings } from '../server/deprecation.ts'
import { count, err, from, ok } from './index.ts'
import { compileSelect } from './query/compile.ts'
import { Product } from './test/schemas.ts'

describe('deprecated forms of vela/dbl', () => {
  let warnings: { code: string; message: string }[]
  beforeEach(() => {
    forgetDeprecationWarnings()
    warnings = []
    vi.spyOn(process, 'emitWarning').mockImplementation(((message: string, opts: { code: string }) => {
      warnings.push({ code: opts.code, message })
    }) as typeof process.emitWarning)
  })
  afterEach(() => vi.restoreAllMocks())

  it('count(query) still counts the rows, and warns once naming repo.count', () => {
    const q = count(from(Product).where('price', '>', 1))
    count(from(Product))
    expect(compileSelect(q).sql).toBe(
      'select count(*) as "count" from (select 1 from "products" where "price" > $1) as "counted"',
    )
    expect(warnings).toEqual([
      { code: 'VELA_DEP_DBL_COUNT_QUERY', message: expect.stringContaining('repo.count(query)') },
    ])
    // The aggregate form is not deprecated.
    count()
    count('id', { distinct: true })
    expect(warnings).toHaveLength(1)
  })

  it('ok and err still build results, and warn once each', () => {
    expect(ok(1)).toEqual({ ok: true, value: 1 })
    expect(err('x')).toEqual({ ok: false, error: 'x' })
    ok(2)
    err('y')
    expect(warnings.map((w) => w.code)).toEqual(['VELA_DEP_DBL_OK', 'VELA_DEP_DBL_ERR'])
    expect(warnings[0]!.message).toContain('result.ok')
  })
})
