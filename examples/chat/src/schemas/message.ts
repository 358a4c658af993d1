import { defineSchema, timestamps } from 'vela/dbl'

/** messages: what was said in each room, kept so that someone joining sees the recent past. */
export const Message = defineSchema({
  table: 'messages',
  fields: {
    id: 'id',
    room: { type: 'string', size: 32, nullable: false },
    author: { type: 'string', size: 24, nullable: false },
    body: { type: 'text', nullable: false },
    ...timestamps(),
  },
  indexes: [{ columns: ['room', 'id'] }],
})
