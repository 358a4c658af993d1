/**
 * Composite primary keys and multi-column foreign keys through the generator: the operations and
 * file it writes, replay refusing what PostgreSQL would refuse, and the closed loop on PGlite and
 * PostgreSQL (test/round-trip.ts, whose catalog check compares primary keys and multi-column
 * foreign keys): the key constraints exist, orphans are refused, ON DELETE applies, down() undoes it.
 */
import { expect, test } from 'vitest'
import type { Connection } from '../adapters/adapter.ts'
import { belongsTo, defineSchema, manyToMany, type AnySchema, type OnDelete } from '../schema.ts'
import { operationsSql } from './ddl.ts'
import { planMigration } from './diff.ts'
import { applyOperation, modelFromSchemas } from './model.ts'
import { addForeignKey, alterTable, createTable, dropForeignKey, dropTable } from './operations.ts'
import { renderMigration } from './render.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'

const Order = defineSchema({ table: 'orders', fields: { id: 'id', title: 'string' } })

const Line = defineSchema({
  table: 'order_lines',
  primaryKey: ['order_id', 'line_no'],
  fields: { order_id: 'integer', line_no: 'integer', product: 'string' },
  associations: { order: belongsTo(() => Order, { onDelete: 'cascade' }) },
})

/** line_notes, with a belongsTo the line over (order_id, line_no) unless `assoc: false`. */
const notes = (opts: { assoc?: boolean; onDelete?: OnDelete } = {}) =>
  defineSchema({
    table: 'line_notes',
    fields: { id: 'id', order_id: 'integer', line_no: 'integer', body: 'string' },
    associations:
      opts.assoc === false
        ? {}
        : {
            line: belongsTo((): AnySchema => Line, {
              foreignKey: ['order_id', 'line_no'],
              onDelete: opts.onDelete,
            }),
          },
  })

test('the generator writes PRIMARY KEY (a, b) and a table-level FOREIGN KEY (a, b) REFERENCES t (a, b)', () => {
  const plan = planMigration(new Map(), modelFromSchemas([Order, Line, notes({ onDelete: 'cascade' })]))
  expect(plan.up).toEqual([
    createTable('orders', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'title', type: 'string' },
    ]),
    createTable('order_lines', [
      { name: 'order_id', type: 'integer', primaryKey: true, references: { table: 'orders', onDelete: 'cascade' } },
      { name: 'line_no', type: 'integer', primaryKey: true },
      { name: 'product', type: 'string' },
    ]),
    createTable(
      'line_notes',
      [
        { name: 'id', type: 'id', primaryKey: true },
        { name: 'order_id', type: 'integer' },
        { name: 'line_no', type: 'integer' },
        { name: 'body', type: 'string' },
      ],
      {
        foreignKeys: [
          {
            columns: ['order_id', 'line_no'],
            references: { table: 'order_lines', columns: ['order_id', 'line_no'], onDelete: 'cascade' },
          },
        ],
      },
    ),
  ])
  // The multi-column key goes first, so the tables may be dropped in any order.
  expect(plan.down).toEqual([
    alterTable('line_notes', [dropForeignKey(['order_id', 'line_no'])]),
    dropTable('line_notes'),
    dropTable('order_lines'),
    dropTable('orders'),
  ])
  const sql = operationsSql(plan.up)
  expect(sql[1]).toBe(
    'CREATE TABLE "order_lines" ("order_id" integer NOT NULL CONSTRAINT "order_lines_order_id_fkey" REFERENCES "orders" ("id") ON DELETE CASCADE, ' +
      '"line_no" integer NOT NULL, "product" varchar(255), PRIMARY KEY ("order_id", "line_no"))',
  )
  expect(sql[2]).toBe(
    'CREATE TABLE "line_notes" ("id" bigserial PRIMARY KEY, "order_id" integer, "line_no" integer, "body" varchar(255), ' +
      'CONSTRAINT "line_notes_order_id_line_no_fkey" FOREIGN KEY ("order_id", "line_no") REFERENCES "order_lines" ("order_id", "line_no") ON DELETE CASCADE)',
  )
  expect(renderMigration(plan.up, plan.down, 'vela/dbl')).toContain(
    [
      "    createTable('line_notes', [",
      "      { name: 'id', type: 'id', primaryKey: true },",
      "      { name: 'order_id', type: 'integer' },",
      "      { name: 'line_no', type: 'integer' },",
      "      { name: 'body', type: 'string' },",
      '    ], {',
      '      foreignKeys: [',
      "        { columns: ['order_id', 'line_no'], references: { table: 'order_lines', columns: ['order_id', 'line_no'], onDelete: 'cascade' } },",
      '      ],',
      '    }),',
    ].join('\n'),
  )
})

test('replay refuses a multi-column foreign key PostgreSQL would refuse, naming it', () => {
  const model = modelFromSchemas([Order, Line])
  const add = (columns: string[], to: string[]) =>
    applyOperation(
      model,
      createTable(
        'bad',
        [
          { name: 'a', type: 'integer' },
          { name: 'b', type: 'integer' },
        ],
        { foreignKeys: [{ columns, references: { table: 'order_lines', columns: to } }] },
      ),
      'm1',
    )
  expect(() => add(['a', 'b'], ['order_id', 'order_id'])).toThrow(
    'm1: bad (a, b) references order_lines (order_id, order_id), which are neither its primary key nor a unique index',
  )
  expect(() => add(['a', 'b'], ['line_no', 'product'])).toThrow(
    'm1: bad (a, b) references order_lines (line_no, product), but bad.b and order_lines.product have types that cannot be compared',
  )
  expect(() => add(['a', 'b'], ['order_id'])).toThrow('references.columns must list as many columns of order_lines (2)')
  expect(() => add(['a', 'c'], ['order_id', 'line_no'])).toThrow('table "bad" has no column "c"')
  // The key pointing at order_lines keeps it from being dropped.
  applyOperation(
    model,
    createTable('ok', [
      { name: 'a', type: 'integer' },
      { name: 'b', type: 'integer' },
    ]),
    'm2',
  )
  applyOperation(
    model,
    alterTable('ok', [
      addForeignKey({ columns: ['a', 'b'], references: { table: 'order_lines', columns: ['order_id', 'line_no'] } }),
    ]),
    'm3',
  )
  expect(() => applyOperation(model, dropTable('order_lines'), 'm4')).toThrow(
    'm4: table "order_lines" is still referenced by ok (a, b); drop those foreign keys first',
  )
})

test('association errors: a key of the wrong length, and manyToMany through a composite key', () => {
  const Wrong = defineSchema({
    table: 'wrong',
    fields: { id: 'id', line_id: 'integer' },
    associations: { line: belongsTo(() => Line, { foreignKey: 'line_id' }) },
  })
  const warnings: string[] = []
  modelFromSchemas([Order, Line, Wrong], warnings)
  expect(warnings).toEqual([
    "association wrong.line: order_lines's primary key is (order_id, line_no), so foreignKey must list 2 columns of wrong in that order; it lists (line_id); no foreign key is generated for it",
  ])
  expect(() =>
    defineSchema({
      table: 'carts',
      primaryKey: ['a', 'b'],
      fields: { a: 'integer', b: 'integer' },
      associations: { tags: manyToMany(() => Order, { joinThrough: 'cart_tags' }) },
    }),
  ).toThrow(
    'schema carts: manyToMany association "tags" needs a one-field primary key, and carts\'s is (a, b); use a join schema with two belongsTo associations instead',
  )
  expect(() =>
    defineSchema({
      table: 'n',
      fields: { id: 'id', a: 'integer' },
      associations: { line: belongsTo(() => Line, { foreignKey: ['a', 'zz'] }) },
    }),
  ).toThrow('association n.line: foreignKey names "zz", which is not a field of n')
})

const seed = [
  "INSERT INTO orders (title) VALUES ('first')",
  "INSERT INTO order_lines (order_id, line_no, product) VALUES (1, 1, 'bolt'), (1, 2, 'nut')",
  "INSERT INTO line_notes (order_id, line_no, body) VALUES (1, 2, 'fragile')",
]
const orphan = "INSERT INTO line_notes (order_id, line_no, body) VALUES (1, 9, 'orphan')"
const refused = (c: Connection, sql: string) => expect(c.query(sql)).rejects.toThrow(/line_notes_order_id_line_no_fkey/)

const cases: Case[] = [
  {
    name: 'a composite key and a foreign key pointing at it: created, dropped, added back with ON DELETE',
    steps: [
      {
        schemas: [Order, Line, notes()],
        name: 'update_schema',
        ops: ['createTable orders', 'createTable order_lines', 'createTable line_notes'],
        seed,
        verify: async (c) => {
          await refused(c, orphan)
          await expect(c.query('INSERT INTO order_lines (order_id, line_no) VALUES (1, 1)')).rejects.toThrow(
            /order_lines_pkey/,
          )
          await refused(c, 'DELETE FROM order_lines WHERE line_no = 2')
        },
      },
      {
        schemas: [Order, Line, notes({ assoc: false })],
        name: 'alter_line_notes',
        ops: ['dropForeignKey line_notes(order_id,line_no)'],
        verify: async (c) => {
          await c.query(orphan)
          await c.query("DELETE FROM line_notes WHERE body = 'orphan'") // else the rollback could not re-add the key
        },
      },
      {
        schemas: [Order, Line, notes({ onDelete: 'cascade' })],
        name: 'alter_line_notes',
        ops: ['addForeignKey line_notes(order_id,line_no)'],
        verify: async (c) => {
          await refused(c, orphan)
          await c.query('DELETE FROM order_lines WHERE line_no = 2')
          expect(await rows(c, 'SELECT body FROM line_notes')).toEqual([])
          await c.query("INSERT INTO order_lines (order_id, line_no, product) VALUES (1, 2, 'nut')")
          await c.query("INSERT INTO line_notes (order_id, line_no, body) VALUES (1, 2, 'fragile')")
        },
      },
      {
        schemas: [Order, Line, notes({ onDelete: 'restrict' })],
        name: 'alter_line_notes',
        ops: ['dropForeignKey line_notes(order_id,line_no)', 'addForeignKey line_notes(order_id,line_no)'],
        verify: async (c) => refused(c, 'DELETE FROM order_lines WHERE line_no = 2'),
      },
    ],
  },
]

/** order_lines keyed by `id`, or (with `composite`) by (order_id, line_no), `id` kept as a plain column. */
const lines = (composite: boolean) =>
  defineSchema({
    table: 'order_lines',
    ...(composite ? { primaryKey: ['order_id', 'line_no'] as const } : {}),
    fields: {
      id: composite ? { type: 'id', primaryKey: false } : 'id',
      order_id: 'integer',
      line_no: 'integer',
      product: 'string',
    },
  })

cases.push({
  name: 'a table whose key becomes (order_id, line_no) and back: setPrimaryKey, keeping the rows',
  steps: [
    {
      schemas: [lines(false)],
      name: 'create_order_lines',
      seed: ["INSERT INTO order_lines (order_id, line_no, product) VALUES (1, 1, 'bolt'), (1, 2, 'nut')"],
    },
    {
      schemas: [lines(true)],
      name: 'alter_order_lines',
      ops: [
        'setPrimaryKey order_lines(order_id,line_no)',
        'modifyColumn order_lines.order_id{nullable}',
        'modifyColumn order_lines.line_no{nullable}',
      ],
      verify: async (c) => {
        expect(await rows(c, 'SELECT id::int AS id, product FROM order_lines ORDER BY id')).toEqual([
          { id: 1, product: 'bolt' },
          { id: 2, product: 'nut' },
        ])
        await expect(c.query('INSERT INTO order_lines (order_id, line_no) VALUES (1, 2)')).rejects.toThrow(
          /order_lines_pkey/,
        )
      },
    },
  ],
})

cases.push({
  name: 'a column of a two-column foreign key renamed: the key is made again under its new name',
  steps: [
    { schemas: [Order, Line, notes()], name: 'update_schema', seed },
    {
      schemas: [
        Order,
        defineSchema({
          table: 'order_lines',
          primaryKey: ['order_id', 'line_no'],
          fields: { order_id: 'integer', line_no: 'integer', product: 'string' },
        }),
        defineSchema({
          table: 'line_notes',
          fields: { id: 'id', order_id: 'integer', line: { type: 'integer', renamedFrom: 'line_no' }, body: 'string' },
          associations: { line_ref: belongsTo((): AnySchema => Line, { foreignKey: ['order_id', 'line'] }) },
        }),
      ],
      name: 'update_schema',
      decisions: { allowUnsafe: ['rename-column'] },
      ops: [
        'dropForeignKey line_notes(order_id,line_no)',
        'modifyColumn order_lines.order_id{references}',
        'renameColumn line_notes.line_no->line',
        'addForeignKey line_notes(order_id,line)',
      ],
      warnings: [/order_lines\.order_id loses its foreign key to orders\.id/],
      verify: (c) =>
        expect(c.query("INSERT INTO line_notes (order_id, line, body) VALUES (1, 9, 'x')")).rejects.toThrow(
          /line_notes_order_id_line_fkey/,
        ),
    },
  ],
})

test('a multi-column foreign key is written in columns, with ON UPDATE beside ON DELETE', () => {
  const Stored = defineSchema({
    table: 'line_notes',
    fields: {
      id: 'id',
      order_id: { type: 'integer', column: 'order_ref' },
      line_no: { type: 'integer', column: 'line_ref' },
      body: 'string',
    },
    associations: {
      line: belongsTo((): AnySchema => Line, {
        foreignKey: ['order_id', 'line_no'],
        onDelete: 'cascade',
        onUpdate: 'cascade',
      }),
    },
  })
  const plan = planMigration(new Map(), modelFromSchemas([Order, Line, Stored]))
  expect(operationsSql(plan.up)[2]).toBe(
    'CREATE TABLE "line_notes" ("id" bigserial PRIMARY KEY, "order_ref" integer, "line_ref" integer, "body" varchar(255), ' +
      'CONSTRAINT "line_notes_order_ref_line_ref_fkey" FOREIGN KEY ("order_ref", "line_ref") REFERENCES "order_lines" ("order_id", "line_no") ON DELETE CASCADE ON UPDATE CASCADE)',
  )
})

cases.push({
  name: 'a two-column foreign key with ON UPDATE CASCADE: a changed key moves its notes along',
  steps: [
    {
      schemas: [
        Order,
        Line,
        defineSchema({
          table: 'line_notes',
          fields: { id: 'id', order_id: 'integer', line_no: 'integer', body: 'string' },
          associations: {
            line: belongsTo((): AnySchema => Line, { foreignKey: ['order_id', 'line_no'], onUpdate: 'cascade' }),
          },
        }),
      ],
      name: 'update_schema',
      seed,
      verify: async (c) => {
        await c.query('UPDATE order_lines SET line_no = 7 WHERE line_no = 2')
        expect(await rows(c, 'SELECT line_no, body FROM line_notes')).toEqual([{ line_no: 7, body: 'fragile' }])
      },
    },
  ],
})

await roundTrips('composite keys', cases)
