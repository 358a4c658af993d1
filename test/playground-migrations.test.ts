// The playground's migrations of notes' authors, applied to rows: the one that gives notes a key to
// their user (`user_id`, a foreign key, instead of the `author` username), and the later one that
// gives them back their author's name (`author`) beside that key. Existing notes keep their author
// both ways, matched by name or by key; a rollback gives the names back as far as the key allows.
// Then every migration up, all down and up again. On PGlite and on PostgreSQL.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { loadMigrations, migrate, rollbackMigrations } from '../dbl/index.ts'
import type { Migration } from '../dbl/index.ts'
import { backends, type Database } from '../dbl/migrations/test/support.ts'

const dir = fileURLToPath(new URL('../playground/src/migrations', import.meta.url))
const migrations = await loadMigrations(dir)
const [authorKey, authorName] = migrations.filter((m) => m.name === 'alter_notes')
const upTo = (last: Migration) => migrations.filter((m) => m.version <= last.version)
const before = (next: Migration) => migrations.filter((m) => m.version < next.version)

for (const backend of backends) {
  const available = await backend.available()
  describe.skipIf(!available)(`the playground's notes migrations on ${backend.name}`, () => {
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
    const usersByName = async () =>
      Object.fromEntries(
        (await db.adapter.query<{ id: number; name: string }>('SELECT id, name FROM users')).rows.map((u) => [
          u.name,
          Number(u.id),
        ]),
      )
    const notes = async () =>
      (
        await db.adapter.query<{ title: string; author?: string | null; user_id?: number | null }>(
          'SELECT * FROM notes ORDER BY id',
        )
      ).rows.map((n) => ({
        title: n.title,
        ...('author' in n ? { author: n.author } : {}),
        ...('user_id' in n ? { user_id: n.user_id === null ? null : Number(n.user_id) } : {}),
      }))

    test('the key: each note gets the id of the user its author names (null when none does), author goes; down: the names come back', async () => {
      await migrate(db.adapter, before(authorKey!))
      await db.adapter.query(
        "INSERT INTO users (name, email) VALUES ('ada', 'ada@example.com'), ('bob', 'bob@example.com')",
      )
      await db.adapter.query(
        "INSERT INTO notes (title, author) VALUES ('by ada', 'ada'), ('by bob', 'bob'), ('by a stranger', 'ghost')",
      )
      const users = await usersByName()

      expect(await migrate(db.adapter, upTo(authorKey!))).toEqual([
        { version: authorKey!.version, name: 'alter_notes' },
      ])
      expect(await notes()).toEqual([
        { title: 'by ada', user_id: users.ada },
        { title: 'by bob', user_id: users.bob },
        { title: 'by a stranger', user_id: null },
      ])
      expect(await columns()).toEqual(['body', 'id', 'inserted_at', 'title', 'updated_at', 'user_id'])
      await expect(
        db.adapter.query('INSERT INTO notes (title, user_id) VALUES ($1, $2)', ['orphan', 999999]),
      ).rejects.toMatchObject({ code: '23503' })

      await rollbackMigrations(db.adapter, migrations)
      expect(await notes()).toEqual([
        { title: 'by ada', author: 'ada' },
        { title: 'by bob', author: 'bob' },
        { title: 'by a stranger', author: null },
      ])
      expect(await columns()).toEqual(['author', 'body', 'id', 'inserted_at', 'title', 'updated_at'])
    })

    test("the name: each note's author is filled from its user, the key stays; down: the column goes, the key stays", async () => {
      await migrate(db.adapter, before(authorName!))
      await db.adapter.query(
        "INSERT INTO users (name, email) VALUES ('ada', 'ada@example.com'), ('bob', 'bob@example.com')",
      )
      const users = await usersByName()
      await db.adapter.query('INSERT INTO notes (title, user_id) VALUES ($1, $2), ($3, $4), ($5, NULL)', [
        'by ada',
        users.ada,
        'by bob',
        users.bob,
        'by nobody known',
      ])

      expect(await migrate(db.adapter, upTo(authorName!))).toEqual([
        { version: authorName!.version, name: 'alter_notes' },
      ])
      expect(await notes()).toEqual([
        { title: 'by ada', author: 'ada', user_id: users.ada },
        { title: 'by bob', author: 'bob', user_id: users.bob },
        { title: 'by nobody known', author: null, user_id: null },
      ])
      expect(await columns()).toEqual(['author', 'body', 'id', 'inserted_at', 'title', 'updated_at', 'user_id'])
      // What the app writes from now on: an author who is no user, with no key.
      await db.adapter.query("INSERT INTO notes (title, author) VALUES ('by a guest', 'guest')")

      expect(await rollbackMigrations(db.adapter, upTo(authorName!))).toEqual([
        { version: authorName!.version, name: 'alter_notes' },
      ])
      expect(await notes()).toEqual([
        { title: 'by ada', user_id: users.ada },
        { title: 'by bob', user_id: users.bob },
        { title: 'by nobody known', user_id: null },
        { title: 'by a guest', user_id: null },
      ])
      expect(await columns()).toEqual(['body', 'id', 'inserted_at', 'title', 'updated_at', 'user_id'])
    })

    test('every migration up, all of them down, and up again: the same tables and notes columns', async () => {
      const tables = async () =>
        (
          await db.adapter.query<{ table_name: string }>(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' ORDER BY table_name",
          )
        ).rows.map((t) => t.table_name)
      const applied = migrations.map((m) => ({ version: m.version, name: m.name }))
      expect(await migrate(db.adapter, migrations)).toEqual(applied)
      const [allTables, noteColumns] = [await tables(), await columns()]
      expect(allTables).toEqual(['notes', 'products', 'users'])
      expect(noteColumns).toEqual(['author', 'body', 'id', 'inserted_at', 'title', 'updated_at', 'user_id'])
      expect(await rollbackMigrations(db.adapter, migrations, { steps: migrations.length })).toEqual(
        applied.toReversed(),
      )
      expect(await tables()).toEqual([])
      expect(await migrate(db.adapter, migrations)).toEqual(applied)
      expect([await tables(), await columns()]).toEqual([allTables, noteColumns])
    })
  })
}
