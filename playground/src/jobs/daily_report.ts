import { from } from 'vela/dbl'
import { defineJob } from 'vela/jobs'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { Product } from '../schemas/product.ts'
import { User } from '../schemas/user.ts'

/**
 * Every night at 03:00 UTC, one log line with what the playground holds: a scheduled job, run
 * once a night however many instances run (`vela jobs` lists its runs).
 */
export default defineJob({
  schedule: '0 3 * * *',
  retries: 2,
  async handler() {
    const [users, notes, products] = await Promise.all([
      repo.count(from(User)),
      repo.count(from(Note)),
      repo.count(from(Product)),
    ])
    console.log(`playground: daily report: ${users} users, ${notes} notes, ${products} products`)
    return { users, notes, products }
  },
})
