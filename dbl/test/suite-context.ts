/** What every repository case gets (repo-cases.ts fills it per backend). A leaf, so cases need not import the suite. */
import type { Adapter } from '../adapters/adapter.ts'
import type { Repo } from '../repo.ts'

export interface SuiteContext {
  adapter: Adapter
  repo: Repo
  /** The database's URL on PostgreSQL (undefined on PGlite): for cases that open pools of their own. */
  url: string | undefined
  /** Rows in a table, read straight through the adapter (not through the code under test). */
  count(table: string): Promise<number>
}
