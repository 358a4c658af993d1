// JSON Schema (draft-07) to the TypeScript types the route types are written with.
import { expect, it } from 'vitest'
import { jsonSchemaToTs } from './json-schema-ts.ts'

const product = {
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string' },
    'unit-price': { type: ['number', 'null'] },
    secret: { type: 'string', writeOnly: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  },
  required: ['id', 'name'],
}

it('objects per direction: read-only properties only in replies, write-only ones only in requests', () => {
  expect(jsonSchemaToTs(product, 'in')).toBe(
    '{ name: string; "unit-price"?: number | null; secret?: string; tags?: ("a" | "b")[] }',
  )
  expect(jsonSchemaToTs(product, 'out')).toBe(
    '{ id: number; name: string; "unit-price"?: number | null; tags?: ("a" | "b")[] }',
  )
})

it('unions, intersections, tuples, maps, constants, and unknown for what it does not read', () => {
  expect(jsonSchemaToTs({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'out')).toBe('string | number')
  expect(
    jsonSchemaToTs(
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'boolean' } } },
          { type: 'object', properties: { b: { const: 1 } } },
        ],
      },
      'out',
    ),
  ).toBe('{ a?: boolean } & { b?: 1 }')
  expect(jsonSchemaToTs({ type: 'array', items: [{ type: 'string' }, { type: 'null' }] }, 'out')).toBe('[string, null]')
  expect(jsonSchemaToTs({ type: 'object', additionalProperties: { type: 'integer' } }, 'out')).toBe(
    '{ [key: string]: number }',
  )
  expect(jsonSchemaToTs({ type: 'object' }, 'out')).toBe('Record<string, unknown>')
  expect(jsonSchemaToTs({ $ref: '#/definitions/x' }, 'out')).toBe('unknown')
  expect(jsonSchemaToTs(false, 'out')).toBe('never')
})

it('a $ref reads as the type refs names for it, unknown when refs knows none', () => {
  const refs = (ref: string) => ({ 'product.json': 'Product', '#/definitions/tag': 'Tag' })[ref]
  expect(
    jsonSchemaToTs(
      {
        type: 'object',
        properties: {
          items: { type: 'array', items: { $ref: 'product.json' } },
          tags: { type: 'array', items: { $ref: '#/definitions/tag' } },
          other: { $ref: 'missing.json' },
        },
        required: ['items'],
      },
      'out',
      refs,
    ),
  ).toBe('{ items: Product[]; tags?: Tag[]; other?: unknown }')
})
