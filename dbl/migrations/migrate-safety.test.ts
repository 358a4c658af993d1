// `migrate` weighs each pending migration's unsafe operations against the data they touch: refused
// (nothing applied) on tables with rows, or for an index on a large table; applied on empty tables,
// when the file lists the check in `safetyAssured`, or when the run allows it.
import { describe, expect, test } from 'vitest'
import type { Migration } from './load.ts'
import { migrate, rollback } from './migrator.ts'
import {
  addCheck,
  addColumn,
  alterTable,
  createIndex,
  createTable,
  dropColumn,
  dropIndex,
  execute,
  modifyColumn,
  renameColumn,
  validateCheck,
  type Operation,
} from './operations.ts'
import { UnsafeMigrationError, type UnsafeCheck } from './safety.ts'
import { onEachBackend } from './test/support.ts'

const create = (rows: number): Migration => ({
  version: 20240101000000,
  name: 'create_items',
  up: () => [
    createTable('items', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'title', type: 'string', size: 40 },
      { name: 'body', type: 'text' },
    ]),
    ...(rows > 0
      ? [execute(`INSERT INTO items (title, body) SELECT 't' || i, 'b' FROM generate_series(1, ${rows}) i`)]
      : []),
  ],
  down: () => [],
})

const change = (up: Operation[], extra: Partial<Migration> = {}): Migration => ({
  version: 20240102000000,
  name: 'alter_items',
  up: () => up,
  down: () => [],
  ...extra,
})

const cases: { check: UnsafeCheck; ops: Operation[]; what: RegExp }[] = [
  {
    check: 'add-not-null-column',
    ops: [alterTable('items', [addColumn({ name: 'sku', type: 'string', nullable: false })])],
    what: /adds the NOT NULL column items\.sku without a default \(add-not-null-column\)/,
  },
  {
    check: 'change-column-type',
    ops: [alterTable('items', [modifyColumn('body', { type: 'string', size: 20 })])],
    what: /changes the type of items\.body to varchar\(20\) \(change-column-type\)/,
  },
  {
    check: 'drop-column',
    ops: [alterTable('items', [dropColumn('body')])],
    what: /drops the column items\.body \(drop-column\)[\s\S]*safe way: first deploy code that no longer reads the field/,
  },
  {
    check: 'rename-column',
    ops: [alterTable('items', [renameColumn('body', 'content')])],
    what: /renames the column items\.body to content \(rename-column\)/,
  },
  {
    check: 'add-check',
    ops: [addCheck('items', 'items_title_short', 'length(title) < 30')],
    what: /adds the check items_title_short to items, checking every row \(add-check\)[\s\S]*safe way: addCheck\(table, name, sql, \{ notValid: true \}\)/,
  },
]

await onEachBackend(`migration safety checks`, (db) => {
  const versions = async () =>
    (await db.adapter.query<{ v: string }>('SELECT version::text AS v FROM schema_migrations ORDER BY 1')).rows.map(
      (r) => r.v,
    )
  const columns = async () =>
    (
      await db.adapter.query<{ c: string }>(
        "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'items' ORDER BY ordinal_position",
      )
    ).rows.map((r) => r.c)

  for (const c of cases) {
    test(`${c.check}: refused on a table with rows, with the risk, the safe way and the acknowledgement`, async () => {
      const before = await (async () => {
        await migrate(db.adapter, [create(1)])
        return columns()
      })()
      const err = await migrate(db.adapter, [create(1), change(c.ops)]).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(UnsafeMigrationError)
      const message = (err as Error).message
      expect(message).toMatch(/^migration m20240102000000_alter_items not applied: it does what is unsafe/)
      expect(message).toMatch(c.what)
      expect(message).toMatch(/risk: .+\n\s+safe way: .+/)
      expect(message).toContain(`export const safetyAssured = ['${c.check}']`)
      expect(message).toContain(`vela migrate --allow-unsafe ${c.check}`)
      expect(await versions()).toEqual(['20240101000000'])
      expect(await columns()).toEqual(before)
    })

    test(`${c.check}: applied on an empty table, or when acknowledged by the file or the run`, async () => {
      expect((await migrate(db.adapter, [create(0), change(c.ops)])).length).toBe(2)
      // PostgreSQL itself refuses a NOT NULL column on rows without values (next test).
      if (c.check === 'add-not-null-column') return
      await db.reset()
      await migrate(db.adapter, [create(1)])
      expect(await migrate(db.adapter, [create(1), change(c.ops, { safetyAssured: [c.check] })])).toHaveLength(1)
      await db.reset()
      await migrate(db.adapter, [create(1)])
      expect(await migrate(db.adapter, [create(1), change(c.ops)], { allowUnsafe: [c.check] })).toHaveLength(1)
    })
  }

  test('add-check the safe way: NOT VALID needs no acknowledgement, checks new rows; validateCheck checks the old', async () => {
    await migrate(db.adapter, [create(1)])
    await db.adapter.query("INSERT INTO items (title, body) VALUES ('a long old title', 'b')")
    const notValid = change([addCheck('items', 'items_title_short', 'length(title) < 10', { notValid: true })])
    expect(await migrate(db.adapter, [create(1), notValid])).toHaveLength(1)
    await expect(db.adapter.query("INSERT INTO items (title) VALUES ('another long title')")).rejects.toThrow(
      /items_title_short/,
    )
    const validate = { ...change([validateCheck('items', 'items_title_short')]), version: 20240103000000 }
    // The old long title breaks the check: validating fails, and nothing of that migration stays.
    await expect(migrate(db.adapter, [create(1), notValid, validate])).rejects.toThrow(/items_title_short/)
    expect(await versions()).toEqual(['20240101000000', '20240102000000'])
    await db.adapter.query('DELETE FROM items WHERE length(title) >= 10')
    expect(await migrate(db.adapter, [create(1), notValid, validate])).toHaveLength(1)
    const { rows } = await db.adapter.query<{ valid: boolean }>(
      "SELECT convalidated AS valid FROM pg_constraint WHERE conname = 'items_title_short'",
    )
    expect(rows).toEqual([{ valid: true }])
  })

  test('a table emptied since it was analyzed has no rows: the estimate does not decide that', async () => {
    await migrate(db.adapter, [create(10)])
    await db.adapter.query('ANALYZE items')
    await db.adapter.query('DELETE FROM items')
    expect(await migrate(db.adapter, [create(10), change([alterTable('items', [dropColumn('body')])])])).toHaveLength(1)
  })

  test('add-not-null-column acknowledged still meets PostgreSQL, which refuses NULLs in existing rows', async () => {
    await migrate(db.adapter, [create(1)])
    const add = change([alterTable('items', [addColumn({ name: 'sku', type: 'string', nullable: false })])])
    await expect(migrate(db.adapter, [create(1), add], { allowUnsafe: ['add-not-null-column'] })).rejects.toThrow(
      /failed and was rolled back: .*sku/,
    )
  })

  test('growing a VARCHAR and VARCHAR to text are not type changes that need acknowledging', async () => {
    await migrate(db.adapter, [create(1)])
    const grow = change([
      alterTable('items', [
        modifyColumn('title', { type: 'string', size: 80 }),
        modifyColumn('body', { type: 'text' }),
      ]),
    ])
    expect(await migrate(db.adapter, [create(1), grow])).toHaveLength(1)
    const toText = {
      ...change([alterTable('items', [modifyColumn('title', { type: 'text' })])]),
      version: 20240103000000,
    }
    expect(await migrate(db.adapter, [create(1), grow, toText])).toHaveLength(1)
  })

  test('an unknown check name in safetyAssured or allowUnsafe is an error naming the checks', async () => {
    await expect(migrate(db.adapter, [create(0)], { allowUnsafe: ['drop-table' as UnsafeCheck] })).rejects.toThrow(
      '"drop-table" is not a safety check; the checks are add-not-null-column, create-index, change-column-type, drop-column, rename-column, add-check',
    )
  })

  describe('create-index', () => {
    const index = (concurrently: boolean, transaction?: boolean) =>
      change([createIndex('items', ['title'], { concurrently })], transaction === undefined ? {} : { transaction })

    test('refused on a table of largeTableRows rows or more, applied below it', async () => {
      await migrate(db.adapter, [create(50)])
      const err = await migrate(db.adapter, [create(50), index(false)], { largeTableRows: 50 }).catch((e) => e)
      expect((err as Error).message).toMatch(
        /not applied: it does what is unsafe on tables that have rows \(an index: on tables of 50 rows or more\):\n {2}- creates the index items_title_index without CONCURRENTLY \(create-index\)[\s\S]*safe way: createIndex\(table, columns, \{ concurrently: true \}\) in a migration exporting `transaction = false`/,
      )
      expect(await versions()).toEqual(['20240101000000'])
      expect(await migrate(db.adapter, [create(50), index(false)], { largeTableRows: 51 })).toHaveLength(1)
    })

    test('the estimate of an analyzed table counts: 100,000 rows by default', async () => {
      await migrate(db.adapter, [create(100_000)])
      await db.adapter.query('ANALYZE items')
      await expect(migrate(db.adapter, [create(100_000), index(false)])).rejects.toThrow(/create-index/)
    })

    test('CONCURRENTLY, outside a transaction, builds the index on a large table; down drops it the same way', async () => {
      await migrate(db.adapter, [create(50)])
      const m = {
        ...index(true, false),
        down: () => [dropIndex('items', 'items_title_index', { concurrently: true })],
      }
      expect(await migrate(db.adapter, [create(50), m], { largeTableRows: 10 })).toHaveLength(1)
      const indexes = async () =>
        (
          await db.adapter.query<{ d: string }>(
            "SELECT indexdef AS d FROM pg_indexes WHERE tablename = 'items' ORDER BY 1",
          )
        ).rows.map((r) => r.d)
      expect(await indexes()).toContain('CREATE INDEX items_title_index ON public.items USING btree (title)')
      await rollback(db.adapter, [create(50), m])
      expect(await indexes()).not.toContain('CREATE INDEX items_title_index ON public.items USING btree (title)')
    })

    test('CONCURRENTLY in a migration that keeps its transaction is an error naming the export', async () => {
      await expect(migrate(db.adapter, [create(0), index(true)])).rejects.toThrow(
        'createIndex items_title_index is CONCURRENTLY, which PostgreSQL cannot run inside a transaction: export const transaction = false',
      )
      expect(await versions()).toEqual(['20240101000000'])
    })

    test('without a transaction, a failure leaves the migration pending and says what stayed applied', async () => {
      const broken = change(
        [createIndex('items', ['title'], { concurrently: true }), execute('SELECT no_such_function()')],
        { transaction: false },
      )
      await expect(migrate(db.adapter, [create(0), broken])).rejects.toThrow(
        /failed outside a transaction \(transaction = false\): the statements before this one stay applied, the migration is still pending/,
      )
      expect(await versions()).toEqual(['20240101000000'])
    })
  })
})
