/**
 * What `vela db seed` does (db.ts declares it): loads the app's repository and `src/seeds.ts`
 * through one runner (as `vela migrate` loads them), and runs the seed's default export with the
 * repository inside one transaction, so a seed that fails half-way writes nothing.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Repo } from '../../../dbl/repo.ts'
import { loadRepo } from '../../migrations.ts'
import { withAppRunner } from './load.ts'

/** The seed file, relative to the app's folder. */
export const SEEDS_FILE = 'src/seeds.ts'

/** Runs the app's seeds; 0 when they ran, 1 (with the reason on stderr) when there are none to run or they failed. */
export async function seed(root: string): Promise<number> {
  const file = resolve(root, SEEDS_FILE)
  if (!existsSync(file)) {
    console.error(
      `no ${SEEDS_FILE}: write one whose default export fills the database, e.g.\n  export default async function seed(repo: Repo) { await repo.insertAll(Product, [{ name: 'Tea', price: 3 }]) }`,
    )
    return 1
  }
  return withAppRunner(root, {}, async (load) => {
    const mod = await load(file)
    const fn = mod.default as ((repo: Repo) => unknown) | undefined
    if (typeof fn !== 'function') {
      console.error(`${SEEDS_FILE} must export a function as default: export default async function seed(repo) { … }`)
      return 1
    }
    const repo = await loadRepo(root, load)
    try {
      const res = await repo.transaction(() => fn(repo))
      if (!res.ok) {
        console.error(`${SEEDS_FILE} failed, nothing was written: ${describe(res.error)}`)
        return 1
      }
      console.log(`Seeded ${repo.name} with ${SEEDS_FILE}`)
      return 0
    } catch (e) {
      console.error(`${SEEDS_FILE} failed, nothing was written: ${describe(e)}`)
      return 1
    } finally {
      await repo.stop()
    }
  })
}

/** A failure as one line: an error's message, a changeset's errors, anything else as JSON. */
function describe(e: unknown): string {
  if (e instanceof Error) return e.message
  const errors = (e as { errors?: unknown } | null)?.errors
  if (Array.isArray(errors)) return `invalid changeset: ${JSON.stringify(errors)}`
  return JSON.stringify(e) ?? String(e)
}
