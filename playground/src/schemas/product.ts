import { defineSchema, timestamps } from 'vela/dbl'

/** products: spec §2.4 (price in cents). */
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
