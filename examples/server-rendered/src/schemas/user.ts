import { defineSchema, timestamps } from 'vela/dbl'

/**
 * users: who may sign in. `password` is virtual (cast and validated, never stored); the users
 * controller stores its hash in `password_hash`.
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
