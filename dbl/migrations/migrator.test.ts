import { expect, test } from 'vitest'
import { migrate, rollback, status } from './migrator.ts'
import type { Migration } from './load.ts'
import { alterTable, addColumn, createTable, dropTable, execute, modifyColumn, type Operation } from './operations.ts'
import { onEachBackend } from './test/support.ts'

const mig = (version: number, name: string, up: Operation[], down: Operation[]): Migration => ({
  version,
  name,
  up: () => up,
  down: () => down,
})

const m1 = mig(
  20240101000000,
  'create_items',
  [
    createTable('items', [
      { name: 'id', type: 'id', primaryKey: true },
      { name: 'title', type: 'string', nullable: false },
    ]),
  ],
  [dropTable('items')],
)
const m2 = mig(
  20240102000000,
  'alter_items',
  [
    alterTable('items', [addColumn({ name: 'qty', type: 'integer', default: 1 })]),
    execute("INSERT INTO items (title) VALUES ('seeded')"),
  ],
  [alterTable('items', [{ change: 'dropColumn', name: 'qty' }])],
)
const m3 = mig(
  20240103000000,
  'create_tags',
  [createTable('tags', [{ name: 'id', type: 'id', primaryKey: true }])],
  [dropTable('tags')],
)

await onEachBackend(`migrator`, (db) => {
  const versions = async () =>
    (
      await db.adapter.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      )
    ).rows
  const tableExists = async (t: string) =>
    (await db.adapter.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [t])).rows[0]!.t !== null

  test('migrate applies pending migrations in version order, records them, and is idempotent', async () => {
    const log: string[] = []
    // Given out of order: the migrator sorts by version.
    const applied = await migrate(db.adapter, [m3, m1, m2], { log: (l) => log.push(l) })
    expect(applied.map((a) => a.name)).toEqual(['create_items', 'alter_items', 'create_tags'])
    expect(log).toEqual([
      'migrated m20240101000000_create_items',
      'migrated m20240102000000_alter_items',
      'migrated m20240103000000_create_tags',
    ])
    expect(await versions()).toEqual([
      { version: 20240101000000, name: 'create_items' },
      { version: 20240102000000, name: 'alter_items' },
      { version: 20240103000000, name: 'create_tags' },
    ])
    expect((await db.adapter.query('SELECT title, qty FROM items')).rows).toEqual([{ title: 'seeded', qty: 1 }])
    expect(await migrate(db.adapter, [m1, m2, m3])).toEqual([])
    expect((await db.adapter.query('SELECT count(*)::int AS n FROM items')).rows[0]).toEqual({ n: 1 })
  })

  test('only the pending ones run when some are applied already', async () => {
    await migrate(db.adapter, [m1])
    expect((await migrate(db.adapter, [m1, m2])).map((a) => a.version)).toEqual([20240102000000])
  })

  test('a failing migration rolls back its own DDL and version row and stops; earlier ones stay', async () => {
    const bad = mig(
      20240102000000,
      'broken',
      [createTable('half', [{ name: 'id', type: 'id', primaryKey: true }]), execute('SELECT 1/0')],
      [dropTable('half')],
    )
    const error = await migrate(db.adapter, [m1, bad, m3]).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(
      /^migration m20240102000000_broken failed and was rolled back: division by zero\n {2}while running: SELECT 1\/0$/,
    )
    expect(await tableExists('items')).toBe(true)
    expect(await tableExists('half')).toBe(false)
    expect(await tableExists('tags')).toBe(false)
    expect((await versions()).map((v) => v.name)).toEqual(['create_items'])
    // The lock was released: a later run can proceed.
    expect((await migrate(db.adapter, [m1, m2, m3])).length).toBe(2)
  })

  test('an operation that cannot be compiled fails before anything runs, naming the migration', async () => {
    const bad = {
      ...mig(
        20240105000000,
        'bad_default',
        [createTable('p', [{ name: 'price', type: 'integer', default: 'free' }])],
        [],
      ),
      file: '/app/src/migrations/m20240105000000_bad_default.ts',
    }
    await expect(migrate(db.adapter, [bad])).rejects.toThrow(
      'migration /app/src/migrations/m20240105000000_bad_default.ts (up): column p.price: default "free" does not fit type integer',
    )
    expect(await tableExists('p')).toBe(false)
    expect(await versions()).toEqual([])
  })

  test('deferred SQL is loaded as its migration is applied, not before, and not for one already applied', async () => {
    const loads: string[] = []
    const deferred = (sql: string) => execute({ about: sql, load: async () => (loads.push(sql), sql) })
    const m = mig(
      20240106000000,
      'deferred',
      [deferred('CREATE TABLE later (id integer)')],
      [deferred('DROP TABLE later')],
    )
    const ops = m.up()
    expect(loads).toEqual([])
    expect(ops).toMatchObject([{ op: 'execute', sql: { about: 'CREATE TABLE later (id integer)' } }])
    expect(await migrate(db.adapter, [m])).toEqual([{ version: 20240106000000, name: 'deferred' }])
    expect(await tableExists('later')).toBe(true)
    await migrate(db.adapter, [m])
    expect(loads).toEqual(['CREATE TABLE later (id integer)'])
    await rollback(db.adapter, [m])
    expect(await tableExists('later')).toBe(false)
    expect(loads).toEqual(['CREATE TABLE later (id integer)', 'DROP TABLE later'])
  })

  test('shrinking a VARCHAR below existing data fails cleanly instead of truncating; text to integer converts', async () => {
    const create = mig(
      20240101000000,
      'create_codes',
      [
        createTable('codes', [
          { name: 'code', type: 'string', size: 10 },
          { name: 'n', type: 'text' },
        ]),
        execute("INSERT INTO codes VALUES ('abcdefghij', '42')"),
      ],
      [],
    )
    const shrink = mig(
      20240102000000,
      'alter_codes',
      [alterTable('codes', [modifyColumn('code', { type: 'string', size: 3 })])],
      [],
    )
    const convert = mig(
      20240103000000,
      'alter_codes',
      [alterTable('codes', [modifyColumn('n', { type: 'integer' })])],
      [],
    )
    // The type changes are acknowledged: what is tested is PostgreSQL's conversion.
    const allowUnsafe = ['change-column-type'] as const
    await expect(migrate(db.adapter, [create, shrink], { allowUnsafe })).rejects.toThrow(
      'value too long for type character varying(3)',
    )
    expect((await db.adapter.query('SELECT code FROM codes')).rows).toEqual([{ code: 'abcdefghij' }])
    await migrate(db.adapter, [create, convert], { allowUnsafe })
    expect((await db.adapter.query('SELECT n FROM codes')).rows).toEqual([{ n: 42 }])
  })

  test('rollback runs down() of the newest applied migrations and removes their versions', async () => {
    await migrate(db.adapter, [m1, m2, m3])
    expect((await rollback(db.adapter, [m1, m2, m3])).map((r) => r.name)).toEqual(['create_tags'])
    expect(await tableExists('tags')).toBe(false)
    expect((await rollback(db.adapter, [m1, m2, m3], { steps: 2 })).map((r) => r.name)).toEqual([
      'alter_items',
      'create_items',
    ])
    expect(await tableExists('items')).toBe(false)
    expect(await versions()).toEqual([])
    expect(await rollback(db.adapter, [m1, m2, m3])).toEqual([])
    await expect(rollback(db.adapter, [m1], { steps: 0 })).rejects.toThrow('steps must be a positive integer')
  })

  test('rollback of a version whose file is gone is a clear error', async () => {
    await migrate(db.adapter, [m1, m3])
    await expect(rollback(db.adapter, [m1])).rejects.toThrow(
      'cannot roll back m20240103000000_create_tags: it is applied but its migration file is missing',
    )
    expect(await tableExists('tags')).toBe(true)
  })

  test('status lists applied and pending migrations and applied versions without a file, changing nothing', async () => {
    expect((await status(db.adapter, [m1, m2])).map((s) => [s.name, s.applied])).toEqual([
      ['create_items', false],
      ['alter_items', false],
    ])
    expect(await tableExists('schema_migrations')).toBe(false)
    await migrate(db.adapter, [m1, m3])
    const list = await status(db.adapter, [m1, m2])
    expect(list.map((s) => [s.version, s.name, s.applied, s.file])).toEqual([
      [20240101000000, 'create_items', true, null],
      [20240102000000, 'alter_items', false, null],
      [20240103000000, 'create_tags', true, null],
    ])
    expect(list[0]!.appliedAt).toBeInstanceOf(Date)
    expect(list[1]!.appliedAt).toBe(null)
  })
})
