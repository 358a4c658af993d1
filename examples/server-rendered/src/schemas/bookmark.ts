import { belongsTo, defineSchema, timestamps } from 'vela/dbl'
import { User } from './user.ts'

/** bookmarks: a title and a link, each kept by one user (`user_id`) and shown only to them. */
export const Bookmark = defineSchema({
  table: 'bookmarks',
  fields: {
    id: 'id',
    user_id: { type: 'integer', nullable: false },
    title: { type: 'string', nullable: false },
    url: { type: 'string', size: 2000, nullable: false },
    ...timestamps(),
  },
  associations: { user: belongsTo(() => User) },
  indexes: [{ columns: ['user_id'] }],
})
