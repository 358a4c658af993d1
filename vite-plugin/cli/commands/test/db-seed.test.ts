// `vela db seed` on a fixture app (vite-plugin/test/fixtures/tested, its embedded database in
// <app>/.data/pglite): src/seeds.ts runs with the app's repo, in one transaction; the rows are read
// back from that folder afterwards. Commands run as a user runs them, outside any test environment.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createPgliteAdapter } from '../../../../dbl/adapters/pglite.ts'
import { useTempDirs } from '../../../test/built-app.ts'
import { vela } from '../../../test/user-process.ts'

const temp = useTempDirs()

const SEEDS = `import type { Repo } from 'vela/dbl'
import { Note } from './schemas/note.ts'

export default async function seed(repo: Repo) {
  const res = await repo.insertAll(Note, [{ title: 'Welcome' }, { title: 'Second' }])
  if (!res.ok) throw res.error
  if (process.env.SEED_FAIL) throw new Error('seed broke after inserting')
}
`

async function titles(app: string): Promise<string[]> {
  const db = await createPgliteAdapter({ dataDir: join(app, '.data', 'pglite') })
  try {
    return (await db.query('select title from notes order by id')).rows.map((r) => r.title as string)
  } finally {
    await db.close()
  }
}

it('runs src/seeds.ts with the repo: the rows are in the database; a throwing seed writes nothing', {
  timeout: 180_000,
}, async () => {
  const app = temp.fixture('tested')
  const none = await vela(app, ['db', 'seed'])
  expect(none.code).toBe(1)
  expect(none.output).toContain('no src/seeds.ts: write one whose default export fills the database')

  writeFileSync(join(app, 'src', 'seeds.ts'), SEEDS)
  expect((await vela(app, ['migrate'])).code).toBe(0)
  const failed = await vela(app, ['db', 'seed'], { SEED_FAIL: '1' })
  expect(failed.output).toContain('src/seeds.ts failed, nothing was written: seed broke after inserting')
  expect(failed.code).toBe(1)
  const seeded = await vela(app, ['db', 'seed'])
  expect(seeded.output).toContain('Seeded notes_repo with src/seeds.ts')
  expect(seeded.code).toBe(0)
  expect(await titles(app)).toEqual(['Welcome', 'Second'])
})

it('a seed file without a default function is refused', { timeout: 120_000 }, async () => {
  const app = temp.fixture('tested')
  writeFileSync(join(app, 'src', 'seeds.ts'), 'export const seed = 1\n')
  const res = await vela(app, ['db', 'seed'])
  expect(res.output).toContain('src/seeds.ts must export a function as default')
  expect(res.code).toBe(1)
})
