import { describe, expect, it } from 'vitest'
import { addError, applyChanges, cast, change, errorsToJson, getField, putChange } from './changeset.ts'
import { constraintError, uniqueConstraint } from './constraints.ts'
import { toDbError } from './db-error.ts'
import { Product, Thing } from './test/schemas.ts'
import {
  validateChange,
  validateExclusion,
  validateFormat,
  validateInclusion,
  validateLength,
  validateNumber,
  validateRequired,
} from './validations.ts'

const product = { id: 1, name: 'Tea', price: 100, description: null, inserted_at: null, updated_at: null }

describe('cast', () => {
  it('reads only allowed fields, casts strings, and records only real changes', () => {
    const cs = cast(Product, product, { name: 'Tea', price: '120', description: 'hot', id: 9, extra: 1 }, [
      'name',
      'price',
    ])
    expect(cs.changes).toEqual({ price: 120 })
    expect(cs.valid).toBe(true)
    expect(cs.params).toEqual({ name: 'Tea', price: '120', description: 'hot', id: 9, extra: 1 })
    expect(applyChanges(cs)).toEqual({ ...product, price: 120 })
  })

  it('treats {} and null as a new record, and empty or blank strings as null', () => {
    expect(cast(Product, null, { name: '   ', description: '' }, ['name', 'description']).changes).toEqual({})
    expect(cast(Product, product, { name: ' ' }, ['name']).changes).toEqual({ name: null })
    expect(cast(Product, {}, null, ['name']).changes).toEqual({})
  })

  it('casts every type from strings, and says "is invalid" when it cannot', () => {
    const ok = cast(
      Thing,
      {},
      {
        count: '-7',
        ratio: '2e3',
        active: '0',
        happened_at: '2024-01-02 03:04:05+02:00',
        day: '2024-02-29',
        scores: [1, '2'],
        status: 'published',
        meta: 'text',
      },
      ['count', 'ratio', 'active', 'happened_at', 'day', 'scores', 'status', 'meta'],
    )
    expect(ok.changes).toEqual({
      count: -7,
      ratio: 2000,
      active: false,
      happened_at: new Date('2024-01-02T01:04:05Z'),
      day: '2024-02-29',
      scores: [1, 2],
      status: 'published',
      meta: 'text',
    })
    const bad = cast(
      Thing,
      {},
      {
        count: '1e3',
        ratio: 'abc',
        active: 'maybe',
        happened_at: '2024-01-02T25:00:00Z',
        day: '02/03/2024',
        ref: '123',
        status: 'Draft',
      },
      ['count', 'ratio', 'active', 'happened_at', 'day', 'ref', 'status'],
    )
    expect(bad.errors.map((e) => [e.field, e.message, e.meta.validation])).toEqual([
      ['count', 'is invalid', 'cast'],
      ['ratio', 'is invalid', 'cast'],
      ['active', 'is invalid', 'cast'],
      ['happened_at', 'is invalid', 'cast'],
      ['day', 'is invalid', 'cast'],
      ['ref', 'is invalid', 'cast'],
      ['status', 'is invalid', 'cast'],
    ])
    expect(bad.valid).toBe(false)
  })

  it('is immutable: every function returns a new changeset', () => {
    const cs = cast(Product, {}, { name: 'A' }, ['name'])
    const next = validateRequired(cs, ['price'])
    expect(cs.errors).toEqual([])
    expect(next.errors).toHaveLength(1)
    expect(putChange(cs, 'price', 5).changes).toEqual({ name: 'A', price: 5 })
    expect(cs.changes).toEqual({ name: 'A' })
  })
})

describe('validations', () => {
  const cs = (params: Record<string, unknown>) => cast(Product, {}, params, ['name', 'price', 'description'])

  it('validateRequired: missing, null and whitespace are blank; existing data counts; no double error', () => {
    expect(errorsToJson(validateRequired(cs({ description: '\t\n' }), ['name', 'description']))).toEqual({
      name: ["can't be blank"],
      description: ["can't be blank"],
    })
    expect(validateRequired(change(Product, product), ['name', 'price']).valid).toBe(true)
    expect(errorsToJson(validateRequired(change(Product, product, { name: '  ' }), ['name']))).toEqual({
      name: ["can't be blank"],
    })
    expect(errorsToJson(validateRequired(cs({ price: 'x' }), ['price']))).toEqual({ price: ['is invalid'] })
    expect(errorsToJson(validateRequired(cs({}), ['name'], { message: 'is required' }))).toEqual({
      name: ['is required'],
    })
  })

  it('validateLength: Ecto messages for strings, lists and bytes; graphemes by default', () => {
    const at = (p: Record<string, unknown>, o: Parameters<typeof validateLength>[2]) =>
      errorsToJson(validateLength(cs(p), 'name', o))
    expect(at({ name: 'ab' }, { min: 3 })).toEqual({ name: ['should be at least 3 character(s)'] })
    expect(at({ name: 'abcd' }, { max: 3 })).toEqual({ name: ['should be at most 3 character(s)'] })
    expect(at({ name: 'abcd' }, { is: 3 })).toEqual({ name: ['should be 3 character(s)'] })
    expect(at({ name: 'abc' }, { min: 3, max: 3 })).toEqual({})
    expect(at({ name: '👩‍👩‍👧' }, { max: 1 })).toEqual({})
    expect(at({ name: 'é' }, { max: 1, count: 'bytes' })).toEqual({ name: ['should be at most 1 byte(s)'] })
    expect(at({}, { min: 3 })).toEqual({})
    const list = validateLength(cast(Thing, {}, { tags: ['a'] }, ['tags']), 'tags', { min: 2 })
    expect(errorsToJson(list)).toEqual({ tags: ['should have at least 2 item(s)'] })
    expect(list.errors[0]!.meta).toEqual({ count: 2, validation: 'length', kind: 'min', type: 'list' })
  })

  it('validateNumber: one Ecto message per failing rule', () => {
    const at = (price: number, o: Parameters<typeof validateNumber>[2]) =>
      errorsToJson(validateNumber(cs({ price }), 'price', o))
    expect(at(0, { greaterThan: 0 })).toEqual({ price: ['must be greater than 0'] })
    expect(at(5, { lessThan: 5 })).toEqual({ price: ['must be less than 5'] })
    expect(at(6, { lessThanOrEqualTo: 5 })).toEqual({ price: ['must be less than or equal to 5'] })
    expect(at(4, { greaterThanOrEqualTo: 5 })).toEqual({ price: ['must be greater than or equal to 5'] })
    expect(at(4, { equalTo: 5 })).toEqual({ price: ['must be equal to 5'] })
    expect(at(5, { notEqualTo: 5 })).toEqual({ price: ['must be not equal to 5'] })
    expect(at(-1, { greaterThan: 0, lessThan: -5 })).toEqual({ price: ['must be less than -5'] })
    expect(at(3, { greaterThan: 0, lessThan: 5 })).toEqual({})
  })

  it('validateFormat, validateInclusion, validateExclusion, validateChange', () => {
    const email = /^[^@\s]+@[^@\s]+$/g
    expect(errorsToJson(validateFormat(cs({ name: 'nope' }), 'name', email))).toEqual({ name: ['has invalid format'] })
    // A global regexp must give the same answer twice (lastIndex is not carried over).
    expect(validateFormat(cs({ name: 'a@b' }), 'name', email).valid).toBe(true)
    expect(validateFormat(cs({ name: 'a@b' }), 'name', email).valid).toBe(true)
    expect(errorsToJson(validateInclusion(cs({ price: 3 }), 'price', [1, 2]))).toEqual({ price: ['is invalid'] })
    expect(validateInclusion(cs({ price: 2 }), 'price', [1, 2]).valid).toBe(true)
    expect(errorsToJson(validateExclusion(cs({ name: 'admin' }), 'name', ['admin']))).toEqual({ name: ['is reserved'] })
    expect(errorsToJson(validateChange(cs({ name: 'x' }), 'name', (_f, v) => (v === 'x' ? ['is x'] : [])))).toEqual({
      name: ['is x'],
    })
  })
})

describe('helpers', () => {
  it('change, putChange, getField, addError and errorsToJson interpolation', () => {
    const c = change(Product, product, { price: 100, name: 'Green tea' })
    expect(c.changes).toEqual({ name: 'Green tea' })
    expect(getField(c, 'name')).toBe('Green tea')
    expect(getField(c, 'price')).toBe(100)
    expect(() => change(Product, product, { nope: 1 } as never)).toThrow('has no field "nope"')
    const e = addError(c, 'price', 'must be %{what} than %{n}', { what: 'more', n: 3 })
    expect(e.valid).toBe(false)
    expect(errorsToJson(e)).toEqual({ price: ['must be more than 3'] })
  })

  it('a declared constraint maps only its own violation', () => {
    const cs = uniqueConstraint(cast(Product, {}, { name: 'A' }, ['name']), 'name')
    expect(cs.constraints).toEqual([
      {
        type: 'unique',
        constraint: 'products_name_index',
        aliases: ['products_name_key'],
        field: 'name',
        message: 'has already been taken',
      },
    ])
    const hit = constraintError(cs, toDbError({ code: '23505', constraint: 'products_name_index', message: 'dup' }))
    expect(hit && errorsToJson(hit)).toEqual({ name: ['has already been taken'] })
    expect(constraintError(cs, toDbError({ code: '23505', constraint: 'other_index', message: 'dup' }))).toBeUndefined()
    expect(
      constraintError(cs, toDbError({ code: '23503', constraint: 'products_name_index', message: 'fk' })),
    ).toBeUndefined()
    expect(constraintError(cs, toDbError({ code: '42601', message: 'syntax' }))).toBeUndefined()
  })
})
