import { defineSchema, timestamps } from 'vela/dbl'

/**
 * users: `id`, `name`, `email`, plus `password_hash` (scrypt, see ../auth/passwords.ts) and
 * `session_generation` (../auth/sessions.ts: "log out everywhere" adds one, ending every session
 * made before), which no API returns: the controllers present users as `{ id, name, email }`.
 * `name` is the login username, hence unique. A user created through the API has no password
 * (null) and cannot log in.
 */
export const User = defineSchema({
  table: 'users',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    email: { type: 'string', nullable: false },
    password_hash: 'string',
    session_generation: { type: 'integer', nullable: false, default: 0 },
    ...timestamps(),
  },
  indexes: [{ columns: ['name'], unique: true }],
})
