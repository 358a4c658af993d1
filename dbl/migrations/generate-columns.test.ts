/**
 * Fields stored under other column names (`column`) in generated migrations: tables, foreign keys
 * and indexes are created under the column names; giving an existing field a column renames its
 * column (data kept); renaming a field while keeping its column changes nothing in the database;
 * moving a column to yet another name is a rename told by `renamedFrom`. Closed loop on PGlite
 * and PostgreSQL (test/round-trip.ts), and the written file's text.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { belongsTo, defineSchema, type FieldSpec } from '../schema.ts'
import { generateMigration } from './generate.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'
import { OPERATIONS_MODULE, tempDir } from './test/support.ts'

const Writer = defineSchema({
  table: 'writers',
  fields: { id: { type: 'id', column: 'writer_id' }, name: { type: 'string', column: 'full_name' } },
})
const posts = () =>
  defineSchema({
    table: 'posts',
    fields: {
      id: 'id',
      title: { type: 'string', nullable: false, column: 'post_title' },
      author_id: { type: 'integer', column: 'writer_ref' },
    },
    associations: { author: belongsTo(() => Writer, { onDelete: 'cascade' }) },
    indexes: [{ columns: ['title'], unique: true }],
  })
const products = (fields: Record<string, FieldSpec>) =>
  defineSchema({ table: 'products', fields: { id: 'id', price: 'integer', ...fields }, indexes: [] })
const seed = ["INSERT INTO products (name, price) VALUES ('lamp', 1200)"]

const cases: Case[] = [
  {
    name: 'tables, foreign keys and indexes are created under the column names',
    steps: [
      {
        schemas: [Writer, posts()],
        name: 'update_schema',
        ops: ['createTable writers', 'createTable posts', 'createIndex posts.posts_post_title_index'],
        seed: [
          "INSERT INTO writers (writer_id, full_name) VALUES (7, 'Ann')",
          "INSERT INTO posts (post_title, writer_ref) VALUES ('Hello', 7)",
        ],
        verify: async (c) => {
          expect(
            await rows(
              c,
              `SELECT ccu.column_name FROM information_schema.key_column_usage kcu
               JOIN information_schema.constraint_column_usage ccu USING (constraint_name)
               WHERE kcu.table_name = 'posts' AND kcu.column_name = 'writer_ref' AND ccu.table_name = 'writers'`,
            ),
          ).toEqual([{ column_name: 'writer_id' }])
          // ON DELETE cascade through the renamed key columns.
          await c.query('DELETE FROM writers')
          expect(await rows(c, 'SELECT count(*)::int AS n FROM posts')).toEqual([{ n: 0 }])
        },
      },
    ],
  },
  {
    name: 'giving a field a column renames its column, data kept; renaming the field back onto it changes nothing',
    steps: [
      { schemas: [products({ name: 'string' })], name: 'create_products', seed },
      {
        schemas: [products({ name: { type: 'string', column: 'label' } })],
        decisions: { allowUnsafe: ['rename-column'] },
        name: 'alter_products',
        ops: ['renameColumn products.name->label'],
        verify: async (c) =>
          expect(await rows(c, 'SELECT label, price FROM products')).toEqual([{ label: 'lamp', price: 1200 }]),
      },
      // The field renamed, its column kept: the safe way to rename a field; no migration.
      { schemas: [products({ caption: { type: 'string', column: 'label' } })], name: null },
      {
        schemas: [products({ caption: { type: 'string', column: 'title', renamedFrom: 'label' } })],
        decisions: { allowUnsafe: ['rename-column'] },
        name: 'alter_products',
        ops: ['renameColumn products.label->title'],
        verify: async (c) => expect(await rows(c, 'SELECT title FROM products')).toEqual([{ title: 'lamp' }]),
      },
    ],
  },
  {
    name: 'a column moved to another name without renamedFrom is a possible rename that needs a decision',
    steps: [
      { schemas: [products({ name: { type: 'string', column: 'label' } })], name: 'create_products' },
      {
        schemas: [products({ name: { type: 'string', column: 'title' } })],
        name: null,
        // The message names the field stored in the new column.
        error:
          /table "products": "label" disappears; "title" appears\n {4}- "title" is "label" renamed \(data kept\): add renamedFrom: 'label' to the field "name" of the products schema/,
      },
    ],
  },
]

await roundTrips('fields under other column names in generated migrations', cases)

test('the written files name the columns: a create, then a rename when a field is given a column', async () => {
  const tmp = await tempDir()
  try {
    const gen = (fields: Record<string, FieldSpec>, at: string) =>
      generateMigration({
        schemas: [products(fields)],
        migrationsDir: tmp.dir,
        now: new Date(at),
        importFrom: OPERATIONS_MODULE,
        decisions: { allowUnsafe: ['rename-column'] },
      })
    const created = await gen({ name: 'string', sku: { type: 'string', column: 'stock_code' } }, '2024-05-01T10:00:00Z')
    expect(await readFile(created.written!, 'utf8')).toContain(`    createTable('products', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'price', type: 'integer' },
      { name: 'name', type: 'string' },
      { name: 'stock_code', type: 'string' },
    ]),`)
    const renamed = await gen(
      { name: { type: 'string', column: 'label' }, sku: { type: 'string', column: 'stock_code' } },
      '2024-05-01T10:01:00Z',
    )
    const [up, down] = (await readFile(renamed.written!, 'utf8')).split('export function down')
    expect(up).toContain("    alterTable('products', [\n      renameColumn('name', 'label'),\n    ]),")
    expect(down).toContain("    alterTable('products', [\n      renameColumn('label', 'name'),\n    ]),")
    expect(up).not.toContain('dropColumn')
  } finally {
    await tmp.remove()
  }
})
