/** The same in-memory data for every server under test. */
export const products = new Map<number, { id: number; name: string; price: number; description: string | null }>()
for (let i = 1; i <= 100; i++)
  products.set(i, {
    id: i,
    name: `Product ${i}`,
    price: 100 * i,
    description: i % 2 ? `Description of product ${i}` : null,
  })
export const TOKEN = 'Bearer bench-token'

/** The body schema of `POST /api/products/checked`, the same JSON Schema for Vela's `validate.body` and Fastify's `schema.body`. */
export const PRODUCT_SCHEMA = {
  type: 'object',
  required: ['name', 'price'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    price: { type: 'integer', minimum: 0 },
    description: { type: ['string', 'null'] },
  },
  additionalProperties: false,
} as const
