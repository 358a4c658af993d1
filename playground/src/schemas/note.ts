import { belongsTo, defineSchema, timestamps } from 'vela/dbl'
import { User } from './user.ts'

/**
 * notes: a title, a body and an `author`, the name its writer gave (required for every new note;
 * null only for notes kept from before notes had one), plus `user_id`, a foreign key to the user
 * of that name when there is one. As with an Ecto schema that stores both a denormalised name and
 * a `belongs_to`, the name is what the API takes and answers, and the association is a link the
 * changeset sets by looking the name up (../controllers/_notes.ts): an author who is no user is
 * still an author, with a null `user_id`. The pages show the linked user's name, else `author`.
 */
export const Note = defineSchema({
  table: 'notes',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    body: 'text',
    author: 'string',
    user_id: 'integer',
    ...timestamps(),
  },
  associations: { user: belongsTo(() => User) },
  // Serves the way back: a user's notes (`leftJoin(from(User), 'notes')`).
  indexes: [{ columns: ['user_id'] }],
})
