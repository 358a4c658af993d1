/**
 * The generator's closed loop, on PGlite and on the PostgreSQL server: for every kind of change,
 * generate a migration, apply it to a real database, check the catalog against the replayed model,
 * and generate again expecting nothing. Finally roll the last migration back and check the catalog
 * again, which proves the generated `down()`.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { defineSchema } from '../schema.ts'
import { generateMigration } from './generate.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'
import { tempDir } from './test/support.ts'

const products = (
  fields: Record<string, unknown>,
  indexes: { columns: string[]; unique?: boolean; name?: string }[] = [],
) =>
  defineSchema({
    table: 'products',
    fields: {
      id: 'id',
      ...(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, 'string'>),
    },
    indexes,
  })
const base = {
  name: { type: 'string', nullable: false },
  price: { type: 'integer', nullable: false },
  description: 'text',
}
const seedProduct = ["INSERT INTO products (name, price, description) VALUES ('lamp', 1200, 'bright')"]

const cases: Case[] = [
  {
    name: 'create table with every field type, defaults and indexes',
    steps: [
      {
        schemas: [
          defineSchema({
            table: 'things',
            fields: {
              id: 'id',
              name: { type: 'string', nullable: false, default: "O'Brien" },
              code: { type: 'string', size: 12 },
              body: 'text',
              qty: { type: 'integer', default: 0 },
              ratio: { type: 'float', default: 0.25 },
              active: { type: 'boolean', nullable: false, default: true },
              at: { type: 'utc_datetime', default: new Date('2024-01-02T03:04:05Z') },
              day: { type: 'date', default: '2024-02-29' },
              ref: 'uuid',
              meta: { type: 'jsonb', default: { a: [1, 'x'] } },
              tags: { type: { array: 'string' }, default: ['a', 'b"c'] },
              scores: { array: 'integer' },
              state: { type: { enum: ['draft', 'live'] }, default: 'draft' },
            },
            indexes: [
              { columns: ['code'], unique: true },
              { columns: ['name', 'day'], name: 'things_by_name_day' },
            ],
          }),
        ],
        name: 'create_things',
        ops: ['createTable things', 'createIndex things.things_code_index', 'createIndex things.things_by_name_day'],
        seed: ['INSERT INTO things DEFAULT VALUES'],
        verify: async (c) =>
          expect(await rows(c, 'SELECT name, qty, active, tags, state, meta FROM things')).toEqual([
            { name: "O'Brien", qty: 0, active: true, tags: ['a', 'b"c'], state: 'draft', meta: { a: [1, 'x'] } },
          ]),
      },
    ],
  },
  {
    name: 'add columns (one NOT NULL with a default fills existing rows)',
    steps: [
      { schemas: [products(base)], name: 'create_products', seed: seedProduct },
      {
        schemas: [
          products({
            ...base,
            sku: { type: 'string', size: 32 },
            stock: { type: 'integer', nullable: false, default: 0 },
          }),
        ],
        name: 'alter_products',
        ops: ['addColumn products.sku', 'addColumn products.stock'],
        verify: async (c) =>
          expect(await rows(c, 'SELECT name, sku, stock FROM products')).toEqual([
            { name: 'lamp', sku: null, stock: 0 },
          ]),
      },
    ],
  },
  {
    name: 'a NOT NULL column without a default is refused until acknowledged',
    steps: [
      { schemas: [products(base)], name: 'create_products' },
      {
        schemas: [products({ ...base, sku: { type: 'string', nullable: false } })],
        name: null,
        error:
          /adds the NOT NULL column products\.sku without a default \(add-not-null-column\)[\s\S]*safe way: add the column nullable \(or with a default\), backfill it, then set NOT NULL[\s\S]*--allow-unsafe add-not-null-column/,
      },
      {
        schemas: [products({ ...base, sku: { type: 'string', nullable: false } })],
        decisions: { allowUnsafe: ['add-not-null-column'] },
        name: 'alter_products',
        ops: ['addColumn products.sku'],
      },
    ],
  },
  {
    name: 'drop a column',
    steps: [
      { schemas: [products(base)], name: 'create_products', seed: seedProduct },
      {
        schemas: [products({ name: base.name, price: base.price })],
        decisions: { allowUnsafe: ['drop-column'] },
        name: 'alter_products',
        ops: ['dropColumn products.description'],
        verify: async (c) =>
          expect(await rows(c, 'SELECT name, price FROM products')).toEqual([{ name: 'lamp', price: 1200 }]),
      },
    ],
  },
  {
    name: 'modify types, keeping the data',
    steps: [
      { schemas: [products(base)], name: 'create_products', seed: seedProduct },
      {
        schemas: [
          products({
            name: { type: 'string', nullable: false, size: 80 },
            price: { type: 'float', nullable: false },
            description: { type: 'string' },
          }),
        ],
        decisions: { allowUnsafe: ['change-column-type'] },
        name: 'alter_products',
        ops: [
          'modifyColumn products.name{type,size}',
          'modifyColumn products.price{type}',
          'modifyColumn products.description{type}',
        ],
        verify: async (c) =>
          expect(await rows(c, 'SELECT name, price, description FROM products')).toEqual([
            { name: 'lamp', price: 1200, description: 'bright' },
          ]),
      },
    ],
  },
  {
    name: 'nullability both ways',
    steps: [
      { schemas: [products(base)], name: 'create_products', seed: seedProduct },
      {
        schemas: [products({ ...base, name: 'string', description: { type: 'text', nullable: false } })],
        name: 'alter_products',
        ops: ['modifyColumn products.name{nullable}', 'modifyColumn products.description{nullable}'],
      },
    ],
  },
  {
    name: 'defaults: set, change, drop, and a type change carrying its default',
    steps: [
      { schemas: [products(base)], name: 'create_products' },
      {
        schemas: [
          products({
            ...base,
            price: { type: 'integer', nullable: false, default: 100 },
            description: { type: 'text', default: 'none' },
          }),
        ],
        name: 'alter_products',
        ops: ['modifyColumn products.price{default}', 'modifyColumn products.description{default}'],
      },
      {
        schemas: [products({ ...base, price: { type: 'integer', nullable: false, default: 250 } })],
        name: 'alter_products',
        ops: ['modifyColumn products.price{default}', 'modifyColumn products.description{default}'],
      },
      {
        schemas: [products({ ...base, price: { type: 'float', nullable: false, default: 2.5 } })],
        decisions: { allowUnsafe: ['change-column-type'] },
        name: 'alter_products',
        ops: ['modifyColumn products.price{type,default}'],
      },
      {
        schemas: [
          products({
            ...base,
            price: { type: 'float', nullable: false, default: 2.5 },
            meta: { type: 'jsonb', default: ['x'] },
          }),
        ],
        name: 'alter_products',
        ops: ['addColumn products.meta'],
      },
      {
        schemas: [
          products({
            ...base,
            price: { type: 'float', nullable: false, default: 2.5 },
            meta: { type: 'jsonb', default: { k: 'v' } },
          }),
        ],
        name: 'alter_products',
        ops: ['modifyColumn products.meta{type,default}'],
      },
    ],
  },
  {
    name: 'indexes: add, change, drop',
    steps: [
      { schemas: [products(base)], name: 'create_products' },
      {
        schemas: [products(base, [{ columns: ['name'], unique: true }])],
        name: 'alter_products',
        ops: ['createIndex products.products_name_index'],
      },
      {
        schemas: [products(base, [{ columns: ['name'] }, { columns: ['price', 'name'] }])],
        name: 'alter_products',
        ops: [
          'dropIndex products.products_name_index',
          'createIndex products.products_name_index',
          'createIndex products.products_price_name_index',
        ],
      },
      {
        schemas: [products(base, [{ columns: ['price', 'name'] }])],
        name: 'alter_products',
        ops: ['dropIndex products.products_name_index'],
      },
    ],
  },
  {
    name: 'enum value changes generate nothing',
    steps: [
      {
        schemas: [
          products({ ...base, state: { type: { enum: ['draft', 'live'] }, nullable: false, default: 'draft' } }),
        ],
        name: 'create_products',
      },
      {
        schemas: [
          products({
            ...base,
            state: { type: { enum: ['draft', 'live', 'archived'] }, nullable: false, default: 'draft' },
          }),
        ],
        name: null,
      },
      {
        schemas: [products({ ...base, state: { type: { enum: ['live'] }, nullable: false, default: 'draft' } })],
        name: null,
      },
    ],
  },
  {
    name: 'a table removed from the schemas is kept with a warning until a decision drops it',
    steps: [
      {
        schemas: [products(base), defineSchema({ table: 'notes', fields: { id: 'id', title: 'string' } })],
        name: 'update_schema',
        ops: ['createTable products', 'createTable notes'],
        seed: ["INSERT INTO notes (title) VALUES ('kept')"],
      },
      {
        schemas: [products(base)],
        name: null,
        warnings: [
          /table "notes" is in the migrations but no schema uses it; it is kept\. To drop it with its data, pass decisions \{ dropTables: \['notes'\] \} \(CLI: --drop-table notes\)/,
        ],
      },
      {
        schemas: [products(base)],
        decisions: { dropTables: ['notes'] },
        name: 'update_schema',
        ops: ['dropTable notes'],
      },
    ],
  },
  {
    name: 'a possible rename stops without a decision; renamedFrom keeps the data',
    steps: [
      { schemas: [products(base, [{ columns: ['name'] }])], name: 'create_products', seed: seedProduct },
      {
        schemas: [
          products({ title: { type: 'string', nullable: false }, price: base.price, description: base.description }),
        ],
        name: null,
        error:
          /Migration not generated: a column disappears while another appears in the same table, which may be a rename[\s\S]*add renamedFrom: 'name' to the field "title" of the products schema, or pass decisions \{ renames: \{ 'products\.title': 'name' \} \} \(CLI: --rename products\.title=name\)[\s\S]*"name" is dropped with its data: pass decisions \{ dropColumns: \['products\.name'\] \} \(CLI: --drop-column products\.name\)/,
      },
      {
        schemas: [
          products(
            {
              title: { type: 'string', nullable: false, renamedFrom: 'name' },
              price: base.price,
              description: base.description,
            },
            [{ columns: ['title'] }],
          ),
        ],
        decisions: { allowUnsafe: ['rename-column'] },
        name: 'alter_products',
        warnings: [/creates the index products_title_index without CONCURRENTLY on the existing table products/],
        ops: [
          'dropIndex products.products_name_index',
          'renameColumn products.name->title',
          'createIndex products.products_title_index',
        ],
        verify: async (c) =>
          expect(await rows(c, 'SELECT title, price FROM products')).toEqual([{ title: 'lamp', price: 1200 }]),
      },
    ],
  },
  {
    name: 'a rename given as a decision (CLI form) keeps the data, together with a type change',
    steps: [
      { schemas: [products(base)], name: 'create_products', seed: seedProduct },
      {
        schemas: [products({ ...base, description: undefined, summary: { type: 'string', size: 100 } })],
        decisions: {
          renames: { 'products.summary': 'description' },
          allowUnsafe: ['rename-column', 'change-column-type'],
        },
        name: 'alter_products',
        ops: ['renameColumn products.description->summary', 'modifyColumn products.summary{type,size}'],
        verify: async (c) => expect(await rows(c, 'SELECT summary FROM products')).toEqual([{ summary: 'bright' }]),
      },
    ],
  },
  {
    name: 'a drop-and-add decision drops the old data',
    steps: [
      { schemas: [products(base)], name: 'create_products', seed: seedProduct },
      {
        schemas: [products({ ...base, description: undefined, notes: 'text' })],
        decisions: { dropColumns: ['products.description'], allowUnsafe: ['drop-column'] },
        name: 'alter_products',
        ops: ['dropColumn products.description', 'addColumn products.notes'],
        verify: async (c) =>
          expect(await rows(c, 'SELECT name, notes FROM products')).toEqual([{ name: 'lamp', notes: null }]),
      },
    ],
  },
  {
    name: 'changes to several tables make one update_schema migration',
    steps: [
      { schemas: [products(base)], name: 'create_products' },
      {
        schemas: [
          products({ ...base, sku: 'string' }),
          defineSchema({
            table: 'users',
            fields: { id: 'id', email: { type: 'string', nullable: false } },
            indexes: [{ columns: ['email'], unique: true }],
          }),
        ],
        name: 'update_schema',
        ops: ['createTable users', 'createIndex users.users_email_index', 'addColumn products.sku'],
      },
    ],
  },
  {
    name: 'a uuid primary key is generated by the database (gen_random_uuid()), a composite one is not',
    steps: [
      {
        schemas: [
          defineSchema({ table: 'tokens', fields: { id: { type: 'uuid', primaryKey: true }, label: 'string' } }),
          defineSchema({
            table: 'pairs',
            fields: { a: { type: 'uuid', primaryKey: true }, b: { type: 'uuid', primaryKey: true } },
          }),
        ],
        name: 'update_schema',
        ops: ['createTable tokens', 'createTable pairs'],
        seed: ["INSERT INTO tokens (label) VALUES ('a'), ('b')"],
        verify: async (c) => {
          const ids = (await rows(c, 'SELECT id FROM tokens')).map((r) => r.id)
          expect(ids).toEqual([
            expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
            expect.any(String),
          ])
          expect(ids[0]).not.toBe(ids[1])
          await expect(c.query('INSERT INTO pairs (a) VALUES (gen_random_uuid())')).rejects.toThrow(
            /null value in column "b"/,
          )
        },
      },
    ],
  },
]

await roundTrips('generated migrations', cases)

test('the written file is readable TypeScript importing the helpers from vela/dbl by default', async () => {
  const tmp = await tempDir()
  try {
    const r = await generateMigration({
      schemas: [
        products({ ...base, tags: { type: { array: 'string' }, default: [] } }, [{ columns: ['name'], unique: true }]),
      ],
      migrationsDir: tmp.dir,
      now: new Date('2024-05-01T10:00:00Z'),
    })
    expect(r.written).toBe(`${tmp.dir}/m20240501100000_create_products.ts`)
    expect(
      await readFile(r.written!, 'utf8'),
    ).toBe(`// Generated by vela from the schemas. Review it before it is applied; edits are kept.
import { createIndex, createTable, dropTable } from 'vela/dbl'

export function up() {
  return [
    createTable('products', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'name', type: 'string', nullable: false },
      { name: 'price', type: 'integer', nullable: false },
      { name: 'description', type: 'text' },
      { name: 'tags', type: { array: 'string' }, default: [] },
    ]),
    createIndex('products', ['name'], { unique: true, name: 'products_name_index' }),
  ]
}

export function down() {
  return [
    dropTable('products'),
  ]
}
`)
  } finally {
    await tmp.remove()
  }
})
