/**
 * CHECK constraints and partial indexes through the generator's closed loop (test/round-trip.ts),
 * on PGlite and PostgreSQL: what the schemas' `checks` and `indexes[].where` generate, that the
 * database then holds them (pg_constraint, pg_index) and refuses what they refuse, that a changed
 * expression is dropped and added again, and that every generated down() restores the catalog.
 */
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import type { Connection } from '../adapters/adapter.ts'
import { field, sql } from '../query/fragment.ts'
import { defineSchema, type CheckSpec, type IndexSpec } from '../schema.ts'
import { planMigration } from './diff.ts'
import { generateMigration } from './generate.ts'
import { applyOperation, modelFromSchemas, type Model } from './model.ts'
import { addCheck, alterTable, createIndex, createTable, dropCheck, dropColumn, type Operation } from './operations.ts'
import { readCatalog, readChecks } from './test/catalog.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'
import { OPERATIONS_MODULE, tempDir } from './test/support.ts'

const productsDef = {
  table: 'products',
  fields: { id: 'id', price: 'integer', sku: 'string' },
} as const
const products = (checks: readonly CheckSpec<'price' | 'sku'>[]) => defineSchema({ ...productsDef, checks })

const users = (indexes: readonly IndexSpec[]) =>
  defineSchema({
    table: 'users',
    fields: { id: 'id', email: 'string', deleted_at: 'utc_datetime' },
    indexes,
  })

const checkDefs = async (c: Connection) => Object.fromEntries((await readChecks(c)).map((k) => [k.name, k.definition]))
const predicate = async (c: Connection, name: string) =>
  (await readCatalog(c)).indexes.find((ix) => ix.name === name)?.predicate
const insertUser = (email: string, deleted: boolean) =>
  `INSERT INTO users (email, deleted_at) VALUES ('${email}', ${deleted ? 'now()' : 'NULL'})`

const cases: Case[] = [
  {
    name: 'a schema check: added with its table, refusing rows; a changed expression dropped and added; a removed one dropped',
    steps: [
      {
        schemas: [products([{ name: 'price_positive', check: 'price > 0' }])],
        name: 'create_products',
        ops: ['createTable products', 'addCheck products.price_positive'],
        seed: ["INSERT INTO products (price, sku) VALUES (5, 'AB')"],
        verify: async (c) => {
          expect(await checkDefs(c)).toEqual({ price_positive: 'CHECK ((price > 0))' })
          await expect(c.query('INSERT INTO products (price) VALUES (0)')).rejects.toThrow(/price_positive/)
        },
      },
      {
        schemas: [products([{ name: 'price_positive', check: 'price > 0 AND price < 1000' }])],
        name: 'alter_products',
        decisions: { allowUnsafe: ['add-check'] },
        ops: ['dropCheck products.price_positive', 'addCheck products.price_positive'],
        verify: async (c) => {
          expect(await checkDefs(c)).toEqual({ price_positive: 'CHECK (((price > 0) AND (price < 1000)))' })
          await expect(c.query('INSERT INTO products (price) VALUES (1000)')).rejects.toThrow(/price_positive/)
        },
      },
      {
        schemas: [products([{ name: 'sku_upper', check: sql`${field('sku')} = upper(${field('sku')})` }])],
        name: 'alter_products',
        decisions: { allowUnsafe: ['add-check'] },
        ops: ['dropCheck products.price_positive', 'addCheck products.sku_upper'],
        verify: async (c) => {
          expect(await checkDefs(c)).toEqual({ sku_upper: 'CHECK (((sku)::text = upper((sku)::text)))' })
          await c.query("INSERT INTO products (price, sku) VALUES (0, 'CD')")
          await expect(c.query("INSERT INTO products (sku) VALUES ('ef')")).rejects.toThrow(/sku_upper/)
          expect(await rows(c, 'SELECT price FROM products ORDER BY id')).toEqual([{ price: 5 }, { price: 0 }])
          await c.query('DELETE FROM products WHERE price = 0') // else rolling back to price_positive fails
        },
      },
    ],
  },
  {
    name: 'a partial unique index: duplicates outside its predicate, none inside; a changed predicate is dropped and created',
    steps: [
      {
        schemas: [users([{ columns: ['email'], unique: true, where: 'deleted_at IS NULL' }])],
        name: 'create_users',
        ops: ['createTable users', 'createIndex users.users_email_index'],
        seed: [insertUser('ann@x.io', false), insertUser('ann@x.io', true), insertUser('ann@x.io', true)],
        verify: async (c) => {
          expect(await predicate(c, 'users_email_index')).toBe('(deleted_at IS NULL)')
          await expect(c.query(insertUser('ann@x.io', false))).rejects.toThrow(/users_email_index/)
        },
      },
      {
        schemas: [
          users([
            {
              columns: ['email'],
              unique: true,
              where: sql`${field('deleted_at')} IS NULL AND ${field('email')} <> ''`,
            },
          ]),
        ],
        name: 'alter_users',
        ops: ['dropIndex users.users_email_index', 'createIndex users.users_email_index'],
        verify: async (c) => {
          expect(await predicate(c, 'users_email_index')).toBe("((deleted_at IS NULL) AND ((email)::text <> ''::text))")
          await c.query("INSERT INTO users (email) VALUES (''), ('')")
          // Else the next step's index over every row could not be built.
          await c.query("DELETE FROM users WHERE email = '' OR deleted_at IS NOT NULL")
        },
      },
      {
        schemas: [users([{ columns: ['email'], unique: true }])],
        name: 'alter_users',
        ops: ['dropIndex users.users_email_index', 'createIndex users.users_email_index'],
        verify: async (c) => {
          expect(await predicate(c, 'users_email_index')).toBe(null)
          await expect(c.query(insertUser('ann@x.io', true))).rejects.toThrow(/users_email_index/)
        },
      },
    ],
  },
]

await roundTrips('generated checks and partial indexes', cases)

const replay = (ops: readonly Operation[]): Model => {
  const model: Model = new Map()
  for (const op of ops) applyOperation(model, op, 'm')
  return model
}

test('checks and partial indexes written by hand are what the schemas declare: nothing to generate', () => {
  const byHand = replay([
    createTable('products', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'price', type: 'integer' },
      { name: 'sku', type: 'string' },
    ]),
    addCheck('products', 'price_positive', 'price > 0'),
    addCheck('products', 'gone', 'sku IS NOT NULL'),
    dropCheck('products', 'gone'),
    createIndex('products', ['sku'], { unique: true, where: 'price > 0' }),
  ])
  const schema = defineSchema({
    table: 'products',
    fields: { id: 'id', price: 'integer', sku: 'string' },
    checks: [{ name: 'price_positive', check: 'price > 0' }],
    indexes: [{ columns: ['sku'], unique: true, where: 'price > 0' }],
  })
  expect(planMigration(byHand, modelFromSchemas([schema])).up).toEqual([])
  // PostgreSQL drops a check and a partial index along with a column they use: so does replay.
  applyOperation(byHand, alterTable('products', [dropColumn('price')]), 'm')
  expect(byHand.get('products')).toMatchObject({ checks: [], indexes: [] })
  expect(() => applyOperation(byHand, dropCheck('products', 'price_positive'), 'm2')).toThrow(
    'm2: table "products" has no check "price_positive"',
  )
  applyOperation(byHand, addCheck('products', 'sku_set', 'sku IS NOT NULL'), 'm3')
  expect(() => applyOperation(byHand, addCheck('products', 'sku_set', 'true'), 'm4')).toThrow(
    'm4: table "products" already has a check "sku_set"',
  )
})

test('the written file adds the check after its table, and builds a partial index CONCURRENTLY on its own', async () => {
  const tmp = await tempDir()
  try {
    const generate = (schemas: Parameters<typeof generateMigration>[0]['schemas'], second: number) =>
      generateMigration({
        schemas,
        migrationsDir: tmp.dir,
        now: new Date(Date.UTC(2024, 4, 1, 10, 0, second)),
        importFrom: OPERATIONS_MODULE,
      })
    const created = await generate(
      [defineSchema({ ...productsDef, checks: [{ name: 'price_positive', check: "price > 0 OR sku = 'free'" }] })],
      0,
    )
    expect(
      await readFile(created.written!, 'utf8'),
    ).toBe(`// Generated by vela from the schemas. Review it before it is applied; edits are kept.
import { addCheck, createTable, dropTable } from '${OPERATIONS_MODULE}'

export function up() {
  return [
    createTable('products', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'price', type: 'integer' },
      { name: 'sku', type: 'string' },
    ]),
    addCheck('products', 'price_positive', 'price > 0 OR sku = \\'free\\''),
  ]
}

export function down() {
  return [
    dropTable('products'),
  ]
}
`)
    const indexed = await generate(
      [
        defineSchema({
          ...productsDef,
          checks: [{ name: 'price_positive', check: "price > 0 OR sku = 'free'" }],
          indexes: [{ columns: ['sku'], unique: true, where: 'price > 0' }],
        }),
      ],
      1,
    )
    expect(await readFile(indexed.written!, 'utf8')).toContain(`export const transaction = false

export function up() {
  return [
    createIndex('products', ['sku'], { unique: true, name: 'products_sku_index', where: 'price > 0', concurrently: true }),
  ]
}`)
    const dropped = await generate([defineSchema(productsDef)], 2)
    expect(await readFile(dropped.written!, 'utf8')).toContain(`export function up() {
  return [
    dropCheck('products', 'price_positive'),
    dropIndex('products', 'products_sku_index'),
  ]
}

export function down() {
  return [
    createIndex('products', ['sku'], { unique: true, name: 'products_sku_index', where: 'price > 0' }),
    addCheck('products', 'price_positive', 'price > 0 OR sku = \\'free\\''),
  ]
}`)
  } finally {
    await tmp.remove()
  }
})

test('defineSchema refuses a check without a name or a field, a repeated name, and values in a fragment', () => {
  const def = (checks: readonly CheckSpec<'price' | 'sku'>[]) => () => defineSchema({ ...productsDef, checks })
  expect(def([{ name: '', check: 'price > 0' }])).toThrow('schema products: a check needs a name')
  expect(def([{ name: 'c', check: 'now() > now()' }])).toThrow(
    'schema products: check c names none of its fields; give the field its error goes on ({ field })',
  )
  expect(
    def([
      { name: 'c', check: 'price > 0' },
      { name: 'c', check: 'price < 9' },
    ]),
  ).toThrow('schema products: two checks are named "c"')
  expect(def([{ name: 'c', check: sql`${field('price')} > ${0}` }])).toThrow(
    'schema products: check c holds the value 0; DDL takes no parameters, so write it into the SQL text',
  )
  expect(def([{ name: 'c', check: sql`${field('cost')} > 0` }])).toThrow(
    'schema products: check c names unknown field "cost"',
  )
  expect(def([{ name: 'c', check: '  ' }])).toThrow('schema products: check c has an empty SQL expression')
  expect(defineSchema({ ...productsDef, checks: [{ name: 'c', check: '\'price\' <> "sku"' }] }).checks).toEqual([
    { name: 'c', check: '\'price\' <> "sku"', field: 'sku', message: 'is invalid' },
  ])
})
