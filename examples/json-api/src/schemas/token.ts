import { belongsTo, defineSchema, timestamps } from 'vela/dbl'
import { User } from './user.ts'

/**
 * api_tokens: the bearer tokens login hands out. Only a token's SHA-256 is kept, so a copy of the
 * table opens nothing; logout deletes the row.
 */
export const Token = defineSchema({
  table: 'api_tokens',
  fields: {
    id: 'id',
    user_id: { type: 'integer', nullable: false },
    token_hash: { type: 'string', nullable: false },
    ...timestamps(),
  },
  associations: { user: belongsTo(() => User) },
  indexes: [{ columns: ['token_hash'], unique: true }],
})
