import { describe, expect, test } from 'vitest'
import { defineSchema } from '../schema.ts'
import { MigrationDecisionError, planMigration } from './diff.ts'
import { migrationName, versionAfter } from './generate.ts'
import { applyOperation, modelFromSchemas, schemaRenames, type Model } from './model.ts'
import {
  addColumn,
  alterTable,
  createIndex,
  createTable,
  dropColumn,
  dropIndex,
  dropTable,
  execute,
  modifyColumn,
  renameColumn,
  setPrimaryKey,
  type Operation,
} from './operations.ts'

const replay = (ops: Operation[]): Model => {
  const model: Model = new Map()
  for (const op of ops) applyOperation(model, op, 'test')
  return model
}
const usersV1 = [
  createTable('users', [
    { name: 'id', type: 'id', primaryKey: true },
    { name: 'name', type: 'string' },
    { name: 'email', type: 'string' },
  ]),
  createIndex('users', ['name']),
]

describe('model replay', () => {
  test('dropping a column drops its indexes and renaming a column renames it inside indexes, as PostgreSQL does', () => {
    const m = replay([
      ...usersV1,
      createIndex('users', ['email', 'name'], { name: 'by_email' }),
      alterTable('users', [renameColumn('email', 'mail')]),
    ])
    expect(m.get('users')!.indexes.map((ix) => [ix.name, ix.columns])).toEqual([
      ['users_name_index', ['name']],
      ['by_email', ['mail', 'name']],
    ])
    applyOperation(m, alterTable('users', [dropColumn('name')]), 'test')
    expect(m.get('users')!.indexes).toEqual([])
  })

  test('modifyColumn keeps what it does not name; execute is invisible', () => {
    const m = replay([
      ...usersV1,
      alterTable('users', [modifyColumn('name', { nullable: false }), modifyColumn('email', { default: 'x' })]),
      execute('CREATE TABLE hidden (x int)'),
    ])
    expect(m.get('users')!.columns.slice(1)).toEqual([
      { name: 'name', type: 'string', primaryKey: false, nullable: false, default: undefined, size: undefined },
      { name: 'email', type: 'string', primaryKey: false, nullable: true, default: 'x', size: undefined },
    ])
    applyOperation(m, alterTable('users', [modifyColumn('email', { type: 'text', default: null })]), 'test')
    expect(m.get('users')!.columns[2]).toMatchObject({ type: 'text', default: undefined, nullable: true })
    expect(m.has('hidden')).toBe(false)
  })

  test('operations that do not fit the model are errors naming the place', () => {
    const m = replay(usersV1)
    expect(() => applyOperation(m, usersV1[0]!, 'migration m1')).toThrow('migration m1: table "users" already exists')
    expect(() => applyOperation(m, dropTable('nope'), 'm')).toThrow(
      'm: table "nope" does not exist at this point of the migrations',
    )
    expect(() => applyOperation(m, alterTable('users', [dropColumn('nope')]), 'm')).toThrow(
      'm: table "users" has no column "nope"',
    )
    expect(() => applyOperation(m, alterTable('users', [addColumn({ name: 'email', type: 'text' })]), 'm')).toThrow(
      'already has a column "email"',
    )
    expect(() => applyOperation(m, alterTable('users', [renameColumn('name', 'email')]), 'm')).toThrow(
      'already has a column "email"',
    )
    expect(() => applyOperation(m, createIndex('users', ['nope']), 'm')).toThrow('table "users" has no column "nope"')
    expect(() => applyOperation(m, createIndex('users', ['name']), 'm')).toThrow(
      'an index "users_name_index" already exists',
    )
    expect(() => applyOperation(m, dropIndex('users', 'nope'), 'm')).toThrow('table "users" has no index "nope"')
  })
})

describe('diff decisions', () => {
  const from = replay(usersV1)
  const renamed = (opts: { renamedFrom?: string } = {}) =>
    defineSchema({
      table: 'users',
      fields: { id: 'id', full_name: { type: 'string', ...opts }, email: 'string' },
      indexes: [{ columns: ['full_name'] }],
    })

  test('a possible rename throws a MigrationDecisionError listing every ambiguous table', () => {
    const posts = defineSchema({ table: 'posts', fields: { id: 'id', body: 'text' } })
    const fromBoth = replay([
      ...usersV1,
      createTable('posts', [
        { name: 'id', type: 'id', primaryKey: true },
        { name: 'content', type: 'text' },
        { name: 'x', type: 'text' },
      ]),
    ])
    const err = (() => {
      try {
        planMigration(fromBoth, modelFromSchemas([renamed(), posts]))
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(MigrationDecisionError)
    expect((err as MigrationDecisionError).ambiguities).toEqual([
      { table: 'users', disappearing: ['name'], appearing: ['full_name'] },
      { table: 'posts', disappearing: ['content', 'x'], appearing: ['body'] },
    ])
    expect((err as Error).message).toContain(`table "posts": "content", "x" disappear; "body" appears`)
    expect((err as Error).message).toContain(
      `"body" is "x" renamed (data kept): add renamedFrom: 'x' to the field "body" of the posts schema, or pass decisions { renames: { 'posts.body': 'x' } } (CLI: --rename posts.body=x)`,
    )
  })

  test('partly decided: a dropColumns decision for one column leaves the other ambiguous', () => {
    const posts = defineSchema({ table: 'posts', fields: { id: 'id', body: 'text' } })
    const fromPosts = replay([
      createTable('posts', [
        { name: 'id', type: 'id', primaryKey: true },
        { name: 'content', type: 'text' },
        { name: 'x', type: 'text' },
      ]),
    ])
    expect(() => planMigration(fromPosts, modelFromSchemas([posts]), { dropColumns: ['posts.x'] })).toThrow(
      `table "posts": "content" disappears; "body" appears`,
    )
    const plan = planMigration(fromPosts, modelFromSchemas([posts]), {
      dropColumns: ['posts.x'],
      renames: { 'posts.body': 'content' },
    })
    expect(plan.up).toEqual([alterTable('posts', [renameColumn('content', 'body'), dropColumn('x')])])
    expect(plan.down).toEqual([
      alterTable('posts', [renameColumn('body', 'content'), addColumn({ name: 'x', type: 'text' })]),
    ])
  })

  test('a rename (from the field or from decisions) and its down(); an explicit decision wins over renamedFrom', () => {
    const schemas = [renamed({ renamedFrom: 'name' })]
    const plan = planMigration(from, modelFromSchemas(schemas), { renames: schemaRenames(schemas) })
    expect(plan.up).toEqual([
      dropIndex('users', 'users_name_index'),
      alterTable('users', [renameColumn('name', 'full_name')]),
      createIndex('users', ['full_name']),
    ])
    expect(plan.down).toEqual([
      dropIndex('users', 'users_full_name_index'),
      alterTable('users', [renameColumn('full_name', 'name')]),
      createIndex('users', ['name']),
    ])
    const fromThree = replay([
      createTable('users', [
        { name: 'id', type: 'id', primaryKey: true },
        { name: 'a', type: 'text' },
        { name: 'b', type: 'text' },
      ]),
    ])
    const target = modelFromSchemas([
      defineSchema({ table: 'users', fields: { id: 'id', c: { type: 'text', renamedFrom: 'a' } } }),
    ])
    expect(planMigration(fromThree, target, { renames: { 'users.c': 'b' }, dropColumns: ['users.a'] }).up).toEqual([
      alterTable('users', [renameColumn('b', 'c'), dropColumn('a')]),
    ])
  })

  test('a renamedFrom that is already applied is ignored; one naming nothing warns and adds; one naming a kept field is an error', () => {
    const after = replay([
      ...usersV1,
      alterTable('users', [renameColumn('name', 'full_name')]),
      dropIndex('users', 'users_name_index'),
      createIndex('users', ['full_name']),
    ])
    const schemas = [renamed({ renamedFrom: 'name' })]
    expect(planMigration(after, modelFromSchemas(schemas), { renames: schemaRenames(schemas) }).up).toEqual([])
    const stale = [renamed({ renamedFrom: 'ghost' })]
    const plan = planMigration(
      replay([
        createTable('users', [
          { name: 'id', type: 'id', primaryKey: true },
          { name: 'email', type: 'string' },
        ]),
      ]),
      modelFromSchemas(stale),
      { renames: schemaRenames(stale) },
    )
    expect(plan.warnings).toEqual([
      'users.full_name is declared renamed from "ghost", which does not exist; "full_name" is added as a new column',
    ])
    expect(plan.up[0]).toEqual(alterTable('users', [addColumn({ name: 'full_name', type: 'string' })]))
    const kept = [
      defineSchema({
        table: 'users',
        fields: { id: 'id', name: 'string', full_name: { type: 'string', renamedFrom: 'name' }, email: 'string' },
      }),
    ]
    expect(() => planMigration(from, modelFromSchemas(kept), { renames: schemaRenames(kept) })).toThrow(
      'users.full_name is declared renamed from "name", but "name" is still a field of the users schema',
    )
  })

  test('down() of a decided table drop recreates it with its indexes; down() of a modify restores the old values', () => {
    const plan = planMigration(from, new Map(), { dropTables: ['users'] })
    expect(plan.up).toEqual([dropTable('users')])
    expect(plan.down).toEqual([
      createTable('users', [
        { name: 'id', type: 'id', primaryKey: true },
        { name: 'name', type: 'string' },
        { name: 'email', type: 'string' },
      ]),
      createIndex('users', ['name']),
    ])
    const target = modelFromSchemas([
      defineSchema({
        table: 'users',
        fields: { id: 'id', name: { type: 'text', nullable: false, default: 'anon' }, email: 'string' },
        indexes: [{ columns: ['name'] }],
      }),
    ])
    const m = planMigration(from, target)
    expect(m.up).toEqual([
      alterTable('users', [modifyColumn('name', { type: 'text', nullable: false, default: 'anon' })]),
    ])
    expect(m.down).toEqual([
      alterTable('users', [modifyColumn('name', { type: 'string', nullable: true, default: null })]),
    ])
  })

  test('function defaults (cast-time only) are not column defaults; a primary key change is setPrimaryKey', () => {
    const target = modelFromSchemas([
      defineSchema({
        table: 'users',
        fields: { id: 'id', name: { type: 'string', default: () => 'x' }, email: 'string' },
        primaryKey: ['id', 'email'],
        indexes: [{ columns: ['name'] }],
      }),
    ])
    const plan = planMigration(from, target)
    expect(plan.warnings).toEqual([])
    // The key, and its implied NOT NULL: the function default produced no column default.
    expect(plan.up).toEqual([
      alterTable('users', [setPrimaryKey(['id', 'email']), modifyColumn('email', { nullable: false })]),
    ])
    expect(plan.down).toEqual([alterTable('users', [setPrimaryKey(['id']), modifyColumn('email', { nullable: true })])])
  })
})

describe('file names and versions', () => {
  test('create_<table>, alter_<table>, update_schema', () => {
    expect(migrationName([createTable('products', []), createIndex('products', ['a'])])).toBe('create_products')
    expect(migrationName([dropIndex('products', 'x'), alterTable('products', [])])).toBe('alter_products')
    expect(migrationName([createTable('a', []), createTable('b', [])])).toBe('update_schema')
    expect(migrationName([dropTable('a')])).toBe('update_schema')
    expect(migrationName([createTable('Order Items', [])])).toBe('create_order_items')
  })

  test('the version is the UTC time, or one second after the newest migration when the clock is behind', () => {
    expect(versionAfter(new Date('2024-05-01T10:00:00Z'), undefined)).toBe('20240501100000')
    expect(versionAfter(new Date('2024-05-01T10:00:00Z'), 20240101000000)).toBe('20240501100000')
    expect(versionAfter(new Date('2024-05-01T10:00:00Z'), 20240501100000)).toBe('20240501100001')
    expect(versionAfter(new Date('2020-01-01T00:00:00Z'), 20241231235959)).toBe('20250101000000')
  })
})
