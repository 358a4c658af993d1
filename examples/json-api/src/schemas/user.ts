import { defineSchema, timestamps } from 'vela/dbl'

/**
 * users: who may call the API. `password` is virtual: it is cast and validated like a column, never
 * stored; the accounts controller stores its hash in `password_hash` instead.
 */
export const User = defineSchema({
  table: 'users',
  fields: {
    id: 'id',
    email: { type: 'string', nullable: false },
    password: { type: 'string', virtual: true },
    password_hash: { type: 'string', nullable: false },
    ...timestamps(),
  },
  indexes: [{ columns: ['email'], unique: true }],
})
