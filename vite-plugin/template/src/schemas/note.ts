import { defineSchema, timestamps } from 'vela/dbl'

/**
 * notes: what the app stores. Edit the fields, then `npx vela migrations generate` (or just
 * `npm run dev` / `npm run build`) writes the migration that brings the database along.
 */
export const Note = defineSchema({
  table: 'notes',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    body: 'text',
    ...timestamps(),
  },
})
