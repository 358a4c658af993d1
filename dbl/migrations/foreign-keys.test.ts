import { describe, expect, test } from 'vitest'
import { belongsTo, defineSchema, manyToMany, type AnySchema } from '../schema.ts'
import { planMigration } from './diff.ts'
import { applyOperation, modelFromSchemas, type Model } from './model.ts'
import {
  addColumn,
  alterTable,
  createIndex,
  createTable,
  dropColumn,
  dropIndex,
  dropTable,
  modifyColumn,
  renameColumn,
  type Operation,
} from './operations.ts'

const replay = (ops: Operation[]): Model => {
  const model: Model = new Map()
  for (const op of ops) applyOperation(model, op, 'm')
  return model
}
const id = { name: 'id', type: 'id', primaryKey: true } as const
const createUsers = createTable('users', [id, { name: 'email', type: 'string' }])
const createPosts = createTable('posts', [id, { name: 'user_id', type: 'integer', references: { table: 'users' } }])

const User = defineSchema({ table: 'users', fields: { id: 'id', email: 'string' } })
const post = (
  assoc: Parameters<typeof belongsTo>[1] | null,
  fields: Record<string, 'integer'> = { user_id: 'integer' },
) =>
  defineSchema({
    table: 'posts',
    fields: { id: 'id', ...fields },
    associations: assoc ? { user: belongsTo((): AnySchema => User, assoc) } : {},
  })

describe('foreign keys from belongsTo', () => {
  test('a belongsTo column references the related primary key, with its onDelete and onUpdate; a custom foreignKey too', () => {
    const m = modelFromSchemas([post({ onDelete: 'cascade' }), User])
    expect(m.get('posts')!.columns[1]!.references).toEqual({
      table: 'users',
      column: 'id',
      onDelete: 'cascade',
      onUpdate: 'no_action',
    })
    const updating = modelFromSchemas([post({ onUpdate: 'cascade' }), User])
    expect(updating.get('posts')!.columns[1]!.references).toMatchObject({ onDelete: 'no_action', onUpdate: 'cascade' })
    const custom = modelFromSchemas([User, post({ foreignKey: 'author' }, { author: 'integer' })])
    expect(custom.get('posts')!.columns[1]).toMatchObject({
      name: 'author',
      references: { table: 'users', column: 'id', onDelete: 'no_action' },
    })
  })

  test('a belongsTo without its field, or to a table no schema here uses, generates no foreign key and says why', () => {
    const warnings: string[] = []
    const m = modelFromSchemas([User, post({ foreignKey: 'owner_id' })], warnings)
    expect(m.get('posts')!.columns.map((c) => c.references)).toEqual([undefined, undefined])
    const alone = modelFromSchemas([post({})], warnings)
    expect(alone.get('posts')!.columns[1]!.references).toBe(undefined)
    modelFromSchemas(
      [User, post({ onDelete: 'set_null' }, { user_id: { type: 'integer', nullable: false } as never })],
      warnings,
    )
    expect(warnings).toEqual([
      'association posts.user: posts has no field "owner_id"; no foreign key is generated for it',
      'association posts.user: no schema given uses the table "users"; no foreign key is generated for posts.user_id',
      'association posts.user: onDelete set_null on the NOT NULL column posts.user_id; deleting a referenced users row will fail',
    ])
  })
})

test('a belongsTo whose related schema is not the one given for its table, or two disagreeing on one column, is an error', () => {
  const Other = defineSchema({ table: 'users', fields: { uid: { type: 'id', primaryKey: true } } })
  expect(() => modelFromSchemas([Other, post({})])).toThrow(
    'schema posts, association user: posts.user_id references users.id, but table "users" has no column "id"',
  )
  const twice = defineSchema({
    table: 'posts',
    fields: { id: 'id', user_id: 'integer' },
    associations: {
      user: belongsTo((): AnySchema => User),
      owner: belongsTo((): AnySchema => User, { foreignKey: 'user_id', onDelete: 'cascade' }),
    },
  })
  expect(() => modelFromSchemas([User, twice])).toThrow(
    'schema posts: two belongsTo associations use the column "user_id" with different references',
  )
})

describe('diff order with foreign keys', () => {
  test('a new table comes after the new table it references; down() drops it first', () => {
    const plan = planMigration(new Map(), modelFromSchemas([post({}), User]))
    expect(plan.up.map((op) => `${op.op} ${'table' in op ? op.table : ''}`)).toEqual([
      'createTable users',
      'createTable posts',
    ])
    expect(plan.up[1]).toEqual(createPosts)
    expect(plan.down).toEqual([dropTable('posts'), dropTable('users')])
  })

  test('a cycle: tables created without the forward key, which is added afterwards; down() drops it before the tables', () => {
    const A: AnySchema = defineSchema({
      table: 'a',
      fields: { id: 'id', b_id: 'integer', parent_id: 'integer' },
      associations: { b: belongsTo(() => B), parent: belongsTo(() => A) },
    })
    const B: AnySchema = defineSchema({
      table: 'b',
      fields: { id: 'id', a_id: 'integer' },
      associations: { a: belongsTo(() => A, { onDelete: 'set_null' }) },
    })
    const plan = planMigration(new Map(), modelFromSchemas([A, B]))
    expect(plan.up).toEqual([
      // A self reference needs no deferring: the table exists by the time its constraint is made.
      createTable('a', [
        id,
        { name: 'b_id', type: 'integer' },
        { name: 'parent_id', type: 'integer', references: { table: 'a' } },
      ]),
      createTable('b', [id, { name: 'a_id', type: 'integer', references: { table: 'a', onDelete: 'set_null' } }]),
      alterTable('a', [modifyColumn('b_id', { references: { table: 'b' } })]),
    ])
    expect(plan.down).toEqual([
      alterTable('a', [modifyColumn('b_id', { references: null })]),
      dropTable('b'),
      dropTable('a'),
    ])
  })

  test('a new table referencing a kept column renamed in the same migration gets its key after the rename; down() drops it before', () => {
    const Member = defineSchema({
      table: 'users',
      fields: { uid: { type: 'id', primaryKey: true, renamedFrom: 'id' }, email: 'string' },
    })
    const Badge = defineSchema({
      table: 'badges',
      fields: { id: 'id', user_id: 'integer' },
      associations: { user: belongsTo((): AnySchema => Member) },
    })
    const plan = planMigration(replay([createUsers]), modelFromSchemas([Member, Badge]), {
      renames: { 'users.uid': 'id' },
    })
    expect(plan.up).toEqual([
      createTable('badges', [id, { name: 'user_id', type: 'integer' }]),
      alterTable('users', [renameColumn('id', 'uid')]),
      alterTable('badges', [modifyColumn('user_id', { references: { table: 'users', column: 'uid' } })]),
    ])
    expect(plan.down).toEqual([
      alterTable('badges', [modifyColumn('user_id', { references: null })]),
      alterTable('users', [renameColumn('uid', 'id')]),
      dropTable('badges'),
    ])
  })

  test('keys pointing at a renamed column follow it (nothing to change); a key added to it comes after the rename', () => {
    const Member = defineSchema({
      table: 'users',
      fields: { uid: { type: 'id', primaryKey: true, renamedFrom: 'id' }, email: 'string' },
    })
    const toMember = defineSchema({
      table: 'posts',
      fields: { id: 'id', user_id: 'integer' },
      associations: { user: belongsTo((): AnySchema => Member) },
    })
    const renames = { 'users.uid': 'id' }
    const followed = planMigration(replay([createUsers, createPosts]), modelFromSchemas([toMember, Member]), {
      renames,
    })
    expect(followed.up).toEqual([alterTable('users', [renameColumn('id', 'uid')])])
    expect(followed.down).toEqual([alterTable('users', [renameColumn('uid', 'id')])])
    const added = planMigration(
      replay([createUsers, createTable('posts', [id, { name: 'user_id', type: 'integer' }])]),
      modelFromSchemas([toMember, Member]),
      { renames },
    )
    expect(added.up).toEqual([
      alterTable('users', [renameColumn('id', 'uid')]),
      alterTable('posts', [modifyColumn('user_id', { references: { table: 'users', column: 'uid' } })]),
    ])
  })

  test('references added, changed and removed on an existing column are modifyColumn, undone by down()', () => {
    const from = replay([createUsers, createTable('posts', [id, { name: 'user_id', type: 'integer' }])])
    const added = planMigration(from, modelFromSchemas([User, post({})]))
    expect(added.up).toEqual([alterTable('posts', [modifyColumn('user_id', { references: { table: 'users' } })])])
    expect(added.down).toEqual([alterTable('posts', [modifyColumn('user_id', { references: null })])])
    const withKey = replay([createUsers, createPosts])
    const changed = planMigration(withKey, modelFromSchemas([User, post({ onDelete: 'restrict' })]))
    expect(changed.up).toEqual([
      alterTable('posts', [modifyColumn('user_id', { references: { table: 'users', onDelete: 'restrict' } })]),
    ])
    expect(changed.down).toEqual([alterTable('posts', [modifyColumn('user_id', { references: { table: 'users' } })])])
    expect(planMigration(withKey, modelFromSchemas([User, post(null)])).up).toEqual([
      alterTable('posts', [modifyColumn('user_id', { references: null })]),
    ])
  })

  test('a changed onUpdate replaces the key (modifyColumn drops and adds it), undone by down()', () => {
    const withKey = replay([createUsers, createPosts])
    const changed = planMigration(withKey, modelFromSchemas([User, post({ onUpdate: 'cascade' })]))
    expect(changed.up).toEqual([
      alterTable('posts', [modifyColumn('user_id', { references: { table: 'users', onUpdate: 'cascade' } })]),
    ])
    expect(changed.down).toEqual([alterTable('posts', [modifyColumn('user_id', { references: { table: 'users' } })])])
    const Tag = defineSchema({ table: 'tags', fields: { id: 'id' } })
    const tagged = defineSchema({
      table: 'posts',
      fields: { id: 'id' },
      associations: { tags: manyToMany(() => Tag, { joinThrough: 'post_tags', onUpdate: 'cascade' }) },
    })
    const join = modelFromSchemas([tagged, Tag]).get('post_tags')!
    expect(join.columns.map((c) => c.references)).toEqual([
      { table: 'posts', column: 'id', onDelete: 'cascade', onUpdate: 'cascade' },
      { table: 'tags', column: 'id', onDelete: 'cascade', onUpdate: 'cascade' },
    ])
    expect(() => modelFromSchemas([User, post({ onUpdate: 'set_default' as never })])).toThrow(
      'association posts.user: onUpdate "set_default" is not one of no_action, restrict, cascade, set_null',
    )
  })

  test('dropping both tables drops the referencing one first; dropping only the referenced one is refused at generate time', () => {
    const from = replay([createUsers, createPosts])
    const both = planMigration(from, new Map(), { dropTables: ['users', 'posts'] })
    expect(both.up).toEqual([dropTable('posts'), dropTable('users')])
    expect(both.down).toEqual([createUsers, createPosts])
    // posts stays in the schemas, but its belongsTo now points at a table no schema uses: its key goes first.
    const onlyUsers = planMigration(from, modelFromSchemas([post({}, { user_id: 'integer' })]), {
      dropTables: ['users'],
    })
    expect(onlyUsers.up).toEqual([
      alterTable('posts', [modifyColumn('user_id', { references: null })]),
      dropTable('users'),
    ])
    expect(onlyUsers.down).toEqual([
      createUsers,
      alterTable('posts', [modifyColumn('user_id', { references: { table: 'users' } })]),
    ])
    // posts is kept (no decision) and still references users.
    expect(() => planMigration(from, new Map(), { dropTables: ['users'] })).toThrow(
      'Migration not generated: its up() would fail: table "users" is still referenced by posts.user_id; drop those columns or their references (or those tables) first',
    )
  })
})

describe('model replay of foreign keys', () => {
  test('renaming a referenced column moves the references; renaming the key column keeps its own', () => {
    const m = replay([
      createUsers,
      createPosts,
      alterTable('users', [renameColumn('id', 'uid')]),
      alterTable('posts', [renameColumn('user_id', 'author_id')]),
    ])
    expect(m.get('posts')!.columns[1]).toMatchObject({
      name: 'author_id',
      references: { table: 'users', column: 'uid' },
    })
  })

  test('what PostgreSQL would refuse is an error naming the migration and the reference', () => {
    expect(() => replay([createPosts])).toThrow(
      'm: posts.user_id references users.id, but table "users" does not exist at this point of the migrations (create it first)',
    )
    const m = replay([createUsers, createPosts])
    const fails = (op: Operation) => () => applyOperation(m, op, 'm')
    expect(fails(dropTable('users'))).toThrow('m: table "users" is still referenced by posts.user_id')
    expect(fails(alterTable('users', [dropColumn('id')]))).toThrow(
      'm: column users.id is still referenced by posts.user_id; drop those references first',
    )
    expect(
      fails(
        alterTable('posts', [
          addColumn({ name: 'x', type: 'string', references: { table: 'users', column: 'email' } }),
        ]),
      ),
    ).toThrow(
      "posts.x references users.email, which is neither its table's one-column primary key nor unique on its own",
    )
    expect(
      fails(
        alterTable('posts', [addColumn({ name: 'y', type: 'string', references: { table: 'users', column: 'nope' } })]),
      ),
    ).toThrow('table "users" has no column "nope"')
    expect(
      fails(
        alterTable('posts', [addColumn({ name: 'u'.repeat(55), type: 'integer', references: { table: 'users' } })]),
      ),
    ).toThrow(
      `but its constraint name "posts_${'u'.repeat(55)}_fkey" is longer than 63 bytes; shorten the table or column name`,
    )
    expect(
      fails(alterTable('posts', [addColumn({ name: 'z', type: 'uuid', references: { table: 'users' } })])),
    ).toThrow('m: posts.z references users.id, but uuid and id cannot be compared (give posts.z the type of users.id)')
    expect(fails(alterTable('users', [modifyColumn('email', { references: null })]))).toThrow(
      'm: column users.email has no foreign key to drop',
    )
    expect(fails(alterTable('posts', [modifyColumn('user_id', { type: 'uuid' })]))).toThrow(
      'posts.user_id references users.id, but uuid and id cannot be compared',
    )
    applyOperation(m, createIndex('users', ['email'], { unique: true }), 'm')
    applyOperation(
      m,
      alterTable('posts', [
        addColumn({ name: 'email', type: 'string', references: { table: 'users', column: 'email' } }),
      ]),
      'm',
    )
    expect(fails(alterTable('users', [modifyColumn('email', { type: 'uuid' })]))).toThrow(
      'm: posts.email references users.email, but string and uuid cannot be compared',
    )
    expect(m.get('users')!.columns[1]!.type).toBe('string')
    // A partial unique index leaves the column free to repeat outside its predicate: no key may rely on it.
    applyOperation(m, alterTable('users', [addColumn({ name: 'code', type: 'string' })]), 'm')
    applyOperation(m, createIndex('users', ['code'], { unique: true, where: 'code IS NOT NULL' }), 'm')
    expect(
      fails(
        alterTable('posts', [addColumn({ name: 'c', type: 'string', references: { table: 'users', column: 'code' } })]),
      ),
    ).toThrow(
      "posts.c references users.code, which is neither its table's one-column primary key nor unique on its own",
    )
    expect(fails(dropIndex('users', 'users_email_index'))).toThrow(
      'm: index "users_email_index" keeps users.email unique for the foreign keys of posts.email',
    )
    // Dropping the referencing column takes its key along, after which the referenced table can go.
    applyOperation(m, alterTable('posts', [dropColumn('user_id'), dropColumn('email')]), 'm')
    applyOperation(m, dropTable('users'), 'm')
    expect(m.has('users')).toBe(false)
  })
})
