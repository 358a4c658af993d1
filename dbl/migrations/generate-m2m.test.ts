/**
 * Join tables of manyToMany associations through the generator's closed loop (test/round-trip.ts),
 * on PGlite and PostgreSQL: generate → apply → the catalog matches → generate again gives nothing,
 * then every down() rolled back with the catalog checked. Also: the table is made once when both
 * sides declare it, its foreign keys refuse orphans and cascade, and declarations that disagree stop
 * the generator.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { defineSchema, manyToMany, type AnySchema, type OnDelete } from '../schema.ts'
import { generateMigration } from './generate.ts'
import { modelFromSchemas } from './model.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'
import { tempDir } from './test/support.ts'

const Tag = defineSchema({ table: 'tags', fields: { id: 'id', name: { type: 'string', nullable: false } } })

/** work_orders, with `tags` through work_order_tags unless `tags: false`. */
const orders = (opts: { tags?: boolean; onDelete?: OnDelete } = {}) =>
  defineSchema({
    table: 'work_orders',
    fields: { id: 'id', title: 'string' },
    associations:
      opts.tags === false
        ? {}
        : { tags: manyToMany(() => Tag, { joinThrough: 'work_order_tags', onDelete: opts.onDelete }) },
  })

/** tags declaring the way back over the same join table. */
const tagsBack = (to: AnySchema, onDelete?: OnDelete) =>
  defineSchema({
    table: 'tags',
    fields: { id: 'id', name: { type: 'string', nullable: false } },
    associations: { work_orders: manyToMany(() => to, { joinThrough: 'work_order_tags', onDelete }) },
  })

const seed = [
  "INSERT INTO tags (name) VALUES ('urgent'), ('outdoor')",
  "INSERT INTO work_orders (title) VALUES ('Fix lights')",
  'INSERT INTO work_order_tags (work_order_id, tag_id) VALUES (1, 1), (1, 2)',
]

const Person: AnySchema = defineSchema({
  table: 'people',
  fields: { id: 'id', name: 'string' },
  associations: {
    friends: manyToMany(() => Person, {
      joinThrough: 'friendships',
      joinKeys: ['person_id', 'friend_id'],
      onDelete: 'restrict',
    }),
  },
})

const cases: Case[] = [
  {
    name: 'manyToMany: the join table with two cascading foreign keys and a unique pair; the other side declaring it changes nothing; dropped on decision',
    steps: [
      {
        schemas: [orders(), Tag],
        name: 'update_schema',
        ops: [
          'createTable work_orders',
          'createTable tags',
          'createTable work_order_tags',
          'createIndex work_order_tags.work_order_tags_tag_id_work_order_id_index',
          'createIndex work_order_tags.work_order_tags_work_order_id_index',
        ],
        seed,
        verify: async (c) => {
          await expect(c.query('INSERT INTO work_order_tags (work_order_id, tag_id) VALUES (1, 99)')).rejects.toThrow(
            /work_order_tags_tag_id_fkey/,
          )
          await expect(c.query('INSERT INTO work_order_tags (work_order_id, tag_id) VALUES (1, 1)')).rejects.toThrow(
            /work_order_tags_tag_id_work_order_id_index/,
          )
          await expect(c.query('INSERT INTO work_order_tags (work_order_id, tag_id) VALUES (NULL, 1)')).rejects.toThrow(
            /null/,
          )
          await c.query('DELETE FROM tags WHERE id = 2')
          expect(await rows(c, 'SELECT work_order_id, tag_id FROM work_order_tags')).toEqual([
            { work_order_id: 1, tag_id: 1 },
          ])
          await c.query('DELETE FROM work_orders')
          expect(await rows(c, 'SELECT * FROM work_order_tags')).toEqual([])
        },
      },
      // Both sides now declare it, listed the other way round: the same table, so nothing to write.
      { schemas: [tagsBack(orders()), orders()], name: null },
      {
        schemas: [orders({ onDelete: 'restrict' }), tagsBack(orders(), 'restrict')],
        name: 'alter_work_order_tags',
        ops: [
          'modifyColumn work_order_tags.tag_id{references}',
          'modifyColumn work_order_tags.work_order_id{references}',
        ],
        seed: [
          "INSERT INTO tags (name) VALUES ('kept')",
          "INSERT INTO work_orders (title) VALUES ('Paint')",
          'INSERT INTO work_order_tags (work_order_id, tag_id) VALUES (2, 3)',
        ],
        verify: async (c) =>
          expect(c.query('DELETE FROM tags WHERE id = 3')).rejects.toThrow(/work_order_tags_tag_id_fkey/),
      },
      {
        schemas: [orders({ tags: false }), Tag],
        decisions: { dropTables: ['work_order_tags'] },
        name: 'update_schema',
        ops: ['dropTable work_order_tags'],
      },
    ],
  },
  {
    name: 'manyToMany added to existing tables, and a self-referencing one with joinKeys',
    steps: [
      {
        schemas: [
          orders({ tags: false }),
          Tag,
          defineSchema({ table: 'people', fields: { id: 'id', name: 'string' } }),
        ],
        name: 'update_schema',
      },
      {
        schemas: [orders(), Tag, Person],
        name: 'update_schema',
        ops: [
          'createTable work_order_tags',
          'createIndex work_order_tags.work_order_tags_tag_id_work_order_id_index',
          'createIndex work_order_tags.work_order_tags_work_order_id_index',
          'createTable friendships',
          'createIndex friendships.friendships_friend_id_person_id_index',
          'createIndex friendships.friendships_person_id_index',
        ],
        seed: [
          "INSERT INTO people (name) VALUES ('Ann'), ('Bob')",
          'INSERT INTO friendships (person_id, friend_id) VALUES (2, 1)',
        ],
        verify: async (c) =>
          expect(c.query('DELETE FROM people WHERE id = 1')).rejects.toThrow(/friendships_friend_id_fkey/),
      },
    ],
  },
  {
    name: 'two declarations of one join table that disagree stop the generator',
    steps: [
      {
        schemas: [orders(), tagsBack(orders(), 'restrict')],
        name: null,
        error:
          /the join table "work_order_tags" is declared by another manyToMany association with other columns, references or onDelete/,
      },
    ],
  },
]

await roundTrips('generated join tables', cases)

test('the written file creates the join table once, after both tables, and down() drops it first', async () => {
  const tmp = await tempDir()
  try {
    const r = await generateMigration({
      schemas: [tagsBack(orders()), orders()],
      migrationsDir: tmp.dir,
      now: new Date('2024-05-01T10:00:00Z'),
    })
    expect(
      await readFile(r.written!, 'utf8'),
    ).toBe(`// Generated by vela from the schemas. Review it before it is applied; edits are kept.
import { createIndex, createTable, dropTable } from 'vela/dbl'

export function up() {
  return [
    createTable('tags', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'name', type: 'string', nullable: false },
    ]),
    createTable('work_orders', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'title', type: 'string' },
    ]),
    createTable('work_order_tags', [
      { name: 'tag_id', type: 'integer', nullable: false, references: { table: 'tags', onDelete: 'cascade' } },
      { name: 'work_order_id', type: 'integer', nullable: false, references: { table: 'work_orders', onDelete: 'cascade' } },
    ]),
    createIndex('work_order_tags', ['tag_id', 'work_order_id'], { unique: true, name: 'work_order_tags_tag_id_work_order_id_index' }),
    createIndex('work_order_tags', ['work_order_id'], { name: 'work_order_tags_work_order_id_index' }),
  ]
}

export function down() {
  return [
    dropTable('work_order_tags'),
    dropTable('work_orders'),
    dropTable('tags'),
  ]
}
`)
  } finally {
    await tmp.remove()
  }
})

test('a related table no schema given uses: a warning, no join table; a join table a schema describes is left to it', () => {
  const warnings: string[] = []
  const model = modelFromSchemas([orders()], warnings)
  expect([...model.keys()]).toEqual(['work_orders'])
  expect(warnings).toEqual([
    'association work_orders.tags: no schema given uses the table "tags"; the join table "work_order_tags" is not generated',
  ])
  const Own = defineSchema({
    table: 'work_order_tags',
    fields: { id: 'id', work_order_id: 'integer', tag_id: 'integer', note: 'text' },
  })
  expect(
    modelFromSchemas([orders(), Tag, Own])
      .get('work_order_tags')!
      .columns.map((c) => c.name),
  ).toEqual(['id', 'work_order_id', 'tag_id', 'note'])
})

test('a self reference needs joinKeys; joinThrough is required', () => {
  const Loop: AnySchema = defineSchema({
    table: 'nodes',
    fields: { id: 'id' },
    associations: { links: manyToMany(() => Loop, { joinThrough: 'node_links' }) },
  })
  expect(() => modelFromSchemas([Loop])).toThrow(
    `association nodes.links: both join keys would be "node_id"; give joinKeys: ['<column for nodes>', '<column for nodes>']`,
  )
  expect(() => manyToMany(() => Tag, {} as never)).toThrow(
    'manyToMany: give the join table as { joinThrough: "<table>" }',
  )
})
