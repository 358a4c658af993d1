import { belongsTo, defineSchema, timestamps } from 'vela/dbl'
import { User } from './user.ts'

/** tasks: each belongs to the user who made it (`user_id`), and only they see it. */
export const Task = defineSchema({
  table: 'tasks',
  fields: {
    id: 'id',
    user_id: { type: 'integer', nullable: false },
    title: { type: 'string', nullable: false },
    done: { type: 'boolean', nullable: false, default: false },
    due_on: 'date',
    ...timestamps(),
  },
  associations: { user: belongsTo(() => User) },
  indexes: [{ columns: ['user_id'] }],
})
