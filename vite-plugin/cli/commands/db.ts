/**
 * `vela db seed`: fills the app's database with the rows `src/seeds.ts` writes. The implementation
 * is in db-seed.ts, imported when the command runs.
 */
import type { CommandSpec } from './args.ts'
import { defineCommand } from './args.ts'

const seedCommand = defineCommand({
  name: 'db seed',
  summary: "run src/seeds.ts against the app's database (one transaction)",
  description: `Runs the default export of src/seeds.ts, a function given the app's repository (the repo
src/repo.ts exports), inside one transaction: a seed that throws leaves the database as it was.
The tables must exist: run vela migrate first. Prints "Seeded <database> with src/seeds.ts".`,
  options: {},
  example: 'vela migrate && vela db seed\nDATABASE_URL=postgres://localhost/shop_dev vela db seed',
  async run({ root }) {
    const { seed } = await import('./db-seed.ts')
    return seed(root)
  },
})

export const DB_COMMANDS: readonly CommandSpec[] = [seedCommand] as never
