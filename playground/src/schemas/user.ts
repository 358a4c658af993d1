import { defineSchema, hasMany, timestamps, type AnySchema } from 'vela/dbl'
import { Note } from './note.ts'

/**
 * users: `id`, `name`, `email`, plus `password_hash` (scrypt, see ../auth/passwords.ts) and
 * `session_generation` (../auth/sessions.ts: "log out everywhere" adds one, ending every session
 * made before), which no API returns: the controllers present users as `{ id, name, email }`.
 * `name` is the login username, hence unique. A user created through the API has no password
 * (null) and cannot log in. A user has written `notes` (their `user_id`); the association's thunk
 * is typed `AnySchema` because TypeScript cannot infer two schemas that name each other.
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
  associations: { notes: hasMany((): AnySchema => Note) },
  indexes: [{ columns: ['name'], unique: true }],
})
