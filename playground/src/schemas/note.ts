import { belongsTo, defineSchema, timestamps } from 'vela/dbl'
import { User } from './user.ts'

/**
 * notes: written by a user (`user_id`, a foreign key to users). `user_id` is nullable in the table
 * only for notes written before notes had an author's key whose author named no user (the
 * migration that added it filled it in by name); the changesets require it for every new note.
 */
export const Note = defineSchema({
  table: 'notes',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    body: 'text',
    user_id: 'integer',
    ...timestamps(),
  },
  associations: { user: belongsTo(() => User) },
  // Serves the way back: a user's notes (`leftJoin(from(User), 'notes')`).
  indexes: [{ columns: ['user_id'] }],
})
