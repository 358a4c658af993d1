import { defineSchema, timestamps } from 'vela/dbl'

/** products: a name, a price in cents (an integer, so sums are exact) and a description. */
export const Product = defineSchema({
  table: 'products',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    price: { type: 'integer', nullable: false },
    description: 'text',
    ...timestamps(),
  },
})
