/**
 * Foreign keys through the generator's closed loop (test/round-trip.ts), on PGlite and PostgreSQL:
 * what belongsTo generates, that the database then refuses orphans and applies ON DELETE, and that
 * every generated down() restores the catalog (foreign keys included) as it was.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { belongsTo, defineSchema, type AnySchema, type OnDelete, type OnUpdate } from '../schema.ts'
import { generateMigration } from './generate.ts'
import { readForeignKeys } from './test/catalog.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'
import { tempDir } from './test/support.ts'
import type { Connection } from '../adapters/adapter.ts'

const User = defineSchema({ table: 'users', fields: { id: 'id', email: { type: 'string', nullable: false } } })

/** posts.<fk> (default user_id), with a belongsTo users (`to`, default User) unless `assoc: false`. */
const posts = (
  opts: {
    assoc?: boolean
    onDelete?: OnDelete
    onUpdate?: OnUpdate
    fk?: string
    renamedFrom?: string
    to?: AnySchema
  } = {},
) => {
  const fk = opts.fk ?? 'user_id'
  return defineSchema({
    table: 'posts',
    fields: {
      id: 'id',
      title: 'string',
      [fk]: { type: 'integer', ...(opts.renamedFrom ? { renamedFrom: opts.renamedFrom } : {}) },
    },
    associations:
      opts.assoc === false
        ? {}
        : {
            user: belongsTo((): AnySchema => opts.to ?? User, {
              foreignKey: fk,
              onDelete: opts.onDelete,
              onUpdate: opts.onUpdate,
            }),
          },
  })
}

const A: AnySchema = defineSchema({
  table: 'a',
  fields: { id: 'id', b_id: 'integer' },
  associations: { b: belongsTo(() => B) },
})
const B: AnySchema = defineSchema({
  table: 'b',
  fields: { id: 'id', a_id: 'integer' },
  associations: { a: belongsTo(() => A, { onDelete: 'cascade' }) },
})

const Member = defineSchema({
  table: 'users',
  fields: { uid: { type: 'id', primaryKey: true, renamedFrom: 'id' }, email: { type: 'string', nullable: false } },
})
const Badge = defineSchema({
  table: 'badges',
  fields: { id: 'id', user_id: 'integer' },
  associations: { user: belongsTo((): AnySchema => Member) },
})

const seed = ["INSERT INTO users (email) VALUES ('ann@x.io')", "INSERT INTO posts (title, user_id) VALUES ('hello', 1)"]
const refused = (c: Connection, sql: string) => expect(c.query(sql)).rejects.toThrow(/posts_user_id_fkey/)

const cases: Case[] = [
  {
    name: 'belongsTo: the referenced table first; orphans refused; ON DELETE cascade deletes the children',
    steps: [
      {
        schemas: [posts({ onDelete: 'cascade' }), User],
        name: 'update_schema',
        ops: ['createTable users', 'createTable posts'],
        seed,
        verify: async (c) => {
          await refused(c, "INSERT INTO posts (title, user_id) VALUES ('orphan', 99)")
          await c.query('DELETE FROM users')
          expect(await rows(c, 'SELECT * FROM posts')).toEqual([])
        },
      },
    ],
  },
  {
    name: 'a foreign key added to, changed on and dropped from an existing column',
    steps: [
      { schemas: [User, posts({ assoc: false })], name: 'update_schema', seed },
      {
        schemas: [User, posts()],
        name: 'alter_posts',
        ops: ['modifyColumn posts.user_id{references}'],
        warnings: [
          /^posts\.user_id gets a foreign key to users\.id: the migration fails if a row of posts has a user_id that matches none$/,
        ],
        // no_action: the referenced user cannot go while its post exists.
        verify: async (c) => refused(c, 'DELETE FROM users'),
      },
      {
        schemas: [User, posts({ onDelete: 'set_null' })],
        name: 'alter_posts',
        ops: ['modifyColumn posts.user_id{references}'],
        verify: async (c) => {
          await c.query('DELETE FROM users')
          expect(await rows(c, 'SELECT title, user_id FROM posts')).toEqual([{ title: 'hello', user_id: null }])
        },
      },
      {
        schemas: [User, posts({ assoc: false })],
        name: 'alter_posts',
        ops: ['modifyColumn posts.user_id{references}'],
        warnings: [/^posts\.user_id loses its foreign key to users\.id: no belongsTo of the posts schema declares it$/],
        verify: async (c) => {
          await c.query("INSERT INTO posts (title, user_id) VALUES ('orphan', 99)")
          await c.query('DELETE FROM posts WHERE user_id = 99') // else the rollback could not re-add the key
        },
      },
    ],
  },
  {
    name: 'onUpdate: a changed rule replaces the key; ON UPDATE cascade carries a changed key into the children',
    steps: [
      { schemas: [User, posts()], name: 'update_schema', seed },
      {
        schemas: [User, posts({ onUpdate: 'cascade', onDelete: 'cascade' })],
        name: 'alter_posts',
        ops: ['modifyColumn posts.user_id{references}'],
        verify: async (c) => {
          const [key] = (await readForeignKeys(c)).filter((k) => k.name === 'posts_user_id_fkey')
          expect(key).toMatchObject({ onDelete: 'cascade', onUpdate: 'cascade' })
          await c.query('UPDATE users SET id = 7')
          expect(await rows(c, 'SELECT title, user_id FROM posts')).toEqual([{ title: 'hello', user_id: 7 }])
        },
      },
      {
        schemas: [User, posts({ onUpdate: 'restrict', onDelete: 'cascade' })],
        name: 'alter_posts',
        ops: ['modifyColumn posts.user_id{references}'],
        verify: async (c) => {
          await refused(c, 'UPDATE users SET id = 8')
          await c.query('UPDATE posts SET user_id = NULL')
          await c.query('UPDATE users SET id = 1') // as the seed had it, for the rollbacks
        },
      },
    ],
  },
  {
    name: 'a belongsTo with a new column adds the column with its foreign key',
    steps: [
      {
        schemas: [User, defineSchema({ table: 'posts', fields: { id: 'id', title: 'string' } })],
        name: 'update_schema',
        seed: seed.slice(0, 1),
      },
      {
        schemas: [User, posts({ onDelete: 'restrict' })],
        name: 'alter_posts',
        ops: ['addColumn posts.user_id'],
        verify: async (c) => {
          await refused(c, "INSERT INTO posts (title, user_id) VALUES ('orphan', 99)")
          await c.query("INSERT INTO posts (title, user_id) VALUES ('hello', 1)")
          await refused(c, 'DELETE FROM users')
        },
      },
    ],
  },
  {
    name: 'tables referencing each other: created, then the cycle closed; down() opens it before dropping',
    steps: [
      {
        schemas: [A, B],
        name: 'update_schema',
        ops: ['createTable a', 'createTable b', 'modifyColumn a.b_id{references}'],
        seed: ['INSERT INTO a (b_id) VALUES (NULL)', 'INSERT INTO b (a_id) VALUES (1)', 'UPDATE a SET b_id = 1'],
        verify: async (c) => {
          await expect(c.query('UPDATE a SET b_id = 42')).rejects.toThrow(/a_b_id_fkey/)
          await c.query('UPDATE a SET b_id = NULL')
          await c.query('DELETE FROM a')
          expect(await rows(c, 'SELECT * FROM b')).toEqual([])
        },
      },
    ],
  },
  {
    name: 'renaming a foreign key column renames its constraint, so a later drop finds it by the new name',
    steps: [
      { schemas: [User, posts()], name: 'update_schema', seed },
      {
        schemas: [User, posts({ fk: 'author_id', renamedFrom: 'user_id' })],
        decisions: { allowUnsafe: ['rename-column'] },
        name: 'alter_posts',
        ops: ['renameColumn posts.user_id->author_id'],
      },
      {
        schemas: [User, posts({ fk: 'author_id', assoc: false })],
        name: 'alter_posts',
        ops: ['modifyColumn posts.author_id{references}'],
        warnings: [/posts\.author_id loses its foreign key to users\.id/],
      },
    ],
  },
  {
    name: 'a new table referencing a primary key renamed in the same migration',
    steps: [
      { schemas: [User], name: 'create_users', seed: seed.slice(0, 1) },
      {
        schemas: [Member, Badge],
        decisions: { allowUnsafe: ['rename-column'] },
        name: 'update_schema',
        ops: ['createTable badges', 'renameColumn users.id->uid', 'modifyColumn badges.user_id{references}'],
        verify: async (c) =>
          expect(c.query('INSERT INTO badges (user_id) VALUES (2)')).rejects.toThrow(/badges_user_id_fkey/),
      },
    ],
  },
  {
    name: 'a referenced primary key renamed: the keys pointing at it follow, nothing else is generated',
    steps: [
      { schemas: [User, posts()], name: 'update_schema', seed },
      {
        schemas: [posts({ to: Member }), Member],
        decisions: { allowUnsafe: ['rename-column'] },
        name: 'alter_users',
        ops: ['renameColumn users.id->uid'],
        verify: async (c) => refused(c, "INSERT INTO posts (title, user_id) VALUES ('orphan', 99)"),
      },
    ],
  },
  {
    name: 'dropping both tables drops the referencing one first; dropping only the referenced one stops the generator',
    steps: [
      { schemas: [User, posts()], name: 'update_schema', seed },
      {
        schemas: [],
        decisions: { dropTables: ['users'] },
        name: null,
        error: /Migration not generated: its up\(\) would fail: table "users" is still referenced by posts\.user_id/,
      },
      {
        schemas: [],
        decisions: { dropTables: ['users', 'posts'] },
        name: 'update_schema',
        ops: ['dropTable posts', 'dropTable users'],
      },
    ],
  },
]

await roundTrips('generated foreign keys', cases)

test('the written file states each reference and closes a cycle with modifyColumn', async () => {
  const tmp = await tempDir()
  try {
    const r = await generateMigration({
      schemas: [A, B],
      migrationsDir: tmp.dir,
      now: new Date('2024-05-01T10:00:00Z'),
    })
    expect(
      await readFile(r.written!, 'utf8'),
    ).toBe(`// Generated by vela from the schemas. Review it before it is applied; edits are kept.
import { alterTable, createTable, dropTable, modifyColumn } from 'vela/dbl'

export function up() {
  return [
    createTable('a', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'b_id', type: 'integer' },
    ]),
    createTable('b', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'a_id', type: 'integer', references: { table: 'a', onDelete: 'cascade' } },
    ]),
    alterTable('a', [
      modifyColumn('b_id', { references: { table: 'b' } }),
    ]),
  ]
}

export function down() {
  return [
    alterTable('a', [
      modifyColumn('b_id', { references: null }),
    ]),
    dropTable('b'),
    dropTable('a'),
  ]
}
`)
  } finally {
    await tmp.remove()
  }
})
