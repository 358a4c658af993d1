import { defineSchema, timestamps } from 'vela/dbl'

/** notes: spec §2.4. `author` is the username of whoever wrote it (a string, not a foreign key). */
export const Note = defineSchema({
  table: 'notes',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    body: 'text',
    author: 'string',
    ...timestamps(),
  },
})
