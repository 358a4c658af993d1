// The playground's migration that gives notes a real author (`user_id`, a foreign key to users,
// instead of the `author` username): existing notes keep their author, matched by name, and a
// rollback gives them their username back. On PGlite and on PostgreSQL.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { loadMigrations, migrate, rollbackMigrations } from '../dbl/index.ts'
import type { Migration } from '../dbl/index.ts'
import { backends, type Database } from '../dbl/migrations/test/support.ts'

const dir = fileURLToPath(new URL('../playground/src/migrations', import.meta.url))
const migrations = await loadMigrations(dir)
const authorKey = migrations.find((m) => m.name === 'alter_notes')!
const before = migrations.filter((m: Migration) => m.version < authorKey.version)

for (const backend of backends) {
  const available = await backend.available()
  describe.skipIf(!available)(`the playground's notes → users migration on ${backend.name}`, () => {
    let db: Database
    beforeAll(async () => {
      db = await backend.open()
    }, 120_000)
    afterAll(async () => {
      await db?.dispose()
    })
    beforeEach(async () => {
      await db.reset()
    })
    const columns = async () =>
      (
        await db.adapter.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' ORDER BY column_name",
        )
      ).rows.map((c) => c.column_name)

    test('up: each note gets the id of the user its author names (null when none does), author goes; down: the names come back', async () => {
      await migrate(db.adapter, before)
      await db.adapter.query(
        "INSERT INTO users (name, email) VALUES ('ada', 'ada@example.com'), ('bob', 'bob@example.com')",
      )
      await db.adapter.query(
        "INSERT INTO notes (title, author) VALUES ('by ada', 'ada'), ('by bob', 'bob'), ('by a stranger', 'ghost')",
      )
      const users = Object.fromEntries(
        (await db.adapter.query<{ id: number; name: string }>('SELECT id, name FROM users')).rows.map((u) => [
          u.name,
          Number(u.id),
        ]),
      )

      expect(await migrate(db.adapter, migrations)).toEqual([{ version: authorKey.version, name: 'alter_notes' }])
      const notes = await db.adapter.query<{ title: string; user_id: number | null }>('SELECT * FROM notes ORDER BY id')
      expect(notes.rows.map((n) => [n.title, n.user_id === null ? null : Number(n.user_id)])).toEqual([
        ['by ada', users.ada],
        ['by bob', users.bob],
        ['by a stranger', null],
      ])
      expect(await columns()).toEqual(['body', 'id', 'inserted_at', 'title', 'updated_at', 'user_id'])
      await expect(
        db.adapter.query('INSERT INTO notes (title, user_id) VALUES ($1, $2)', ['orphan', 999999]),
      ).rejects.toMatchObject({ code: '23503' })

      await rollbackMigrations(db.adapter, migrations)
      const back = await db.adapter.query<{ title: string; author: string | null }>('SELECT * FROM notes ORDER BY id')
      expect(back.rows.map((n) => [n.title, n.author])).toEqual([
        ['by ada', 'ada'],
        ['by bob', 'bob'],
        ['by a stranger', null],
      ])
      expect(await columns()).toEqual(['author', 'body', 'id', 'inserted_at', 'title', 'updated_at'])
    })
  })
}
