import { defineSchema, timestamps } from 'vela/dbl'

/** subscribers: who signed up, and when the welcome mail went out (null until the job ran). */
export const Subscriber = defineSchema({
  table: 'subscribers',
  fields: {
    id: 'id',
    email: { type: 'string', nullable: false },
    welcomed_at: 'utc_datetime',
    ...timestamps(),
  },
  indexes: [{ columns: ['email'], unique: true }],
})
