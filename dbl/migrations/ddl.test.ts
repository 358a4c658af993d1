import { describe, expect, test } from 'vitest'
import { operationSql } from './ddl.ts'
import {
  addCheck,
  addColumn,
  alterTable,
  createIndex,
  createTable,
  dropCheck,
  dropColumn,
  dropIndex,
  dropTable,
  modifyColumn,
  renameColumn,
  validateCheck,
} from './operations.ts'
import { renderMigration } from './render.ts'

describe('DDL compiler', () => {
  test('createTable maps every field type, keys, nullability and defaults', () => {
    const [sql] = operationSql(
      createTable('things', [
        { name: 'id', type: 'id', primaryKey: true },
        { name: 'name', type: 'string', nullable: false, default: "it's" },
        { name: 'code', type: 'string', size: 20 },
        { name: 'body', type: 'text' },
        { name: 'qty', type: 'integer', default: 0 },
        { name: 'ratio', type: 'float', default: 1.5 },
        { name: 'on', type: 'boolean', default: false },
        { name: 'at', type: 'utc_datetime', default: new Date('2024-01-02T03:04:05Z') },
        { name: 'day', type: 'date' },
        { name: 'ref', type: 'uuid' },
        { name: 'meta', type: 'jsonb', default: { a: "b'c" } },
        { name: 'tags', type: { array: 'string' }, default: ['x', 'y"z'] },
        { name: 'state', type: { enum: ['draft', 'live'] }, default: 'draft' },
      ]),
    )
    expect(sql).toBe(
      'CREATE TABLE "things" ("id" bigserial PRIMARY KEY, "name" varchar(255) NOT NULL DEFAULT \'it\'\'s\', "code" varchar(20), "body" text, ' +
        '"qty" integer DEFAULT \'0\', "ratio" double precision DEFAULT \'1.5\', "on" boolean DEFAULT \'false\', ' +
        '"at" timestamptz DEFAULT \'2024-01-02T03:04:05.000Z\', "day" date, "ref" uuid, "meta" jsonb DEFAULT \'{"a":"b\'\'c"}\', ' +
        '"tags" varchar(255)[] DEFAULT \'{"x","y\\"z"}\', "state" varchar(255) DEFAULT \'draft\')',
    )
  })

  test('a composite primary key becomes a table constraint', () => {
    expect(operationSql(createTable('tokens', [{ name: 'id', type: 'uuid', primaryKey: true }]))).toEqual([
      'CREATE TABLE "tokens" ("id" uuid PRIMARY KEY DEFAULT gen_random_uuid())',
    ])
    expect(
      operationSql(
        createTable('pairs', [
          { name: 'a', type: 'integer', primaryKey: true },
          { name: 'b', type: 'uuid', primaryKey: true },
        ]),
      ),
    ).toEqual(['CREATE TABLE "pairs" ("a" integer NOT NULL, "b" uuid NOT NULL, PRIMARY KEY ("a", "b"))'])
  })

  test('alterTable changes compile to one statement each; modifyColumn touches only what it names', () => {
    expect(
      operationSql(
        alterTable('t', [
          addColumn({ name: 'n', type: 'integer', nullable: false, default: 3 }),
          dropColumn('old'),
          renameColumn('a', 'b'),
          modifyColumn('c', { nullable: true }),
          modifyColumn('d', { default: null }),
          modifyColumn('e', { type: 'string', size: 40, default: 'x', nullable: false }),
          modifyColumn('f', { type: 'integer' }),
        ]),
      ),
    ).toEqual([
      `ALTER TABLE "t" ADD COLUMN "n" integer NOT NULL DEFAULT '3'`,
      'ALTER TABLE "t" DROP COLUMN "old"',
      'ALTER TABLE "t" RENAME COLUMN "a" TO "b"',
      `DO $vela$ BEGIN IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = '"t"'::regclass AND conname = 't_a_fkey') THEN ALTER TABLE "t" RENAME CONSTRAINT "t_a_fkey" TO "t_b_fkey"; END IF; END $vela$`,
      'ALTER TABLE "t" ALTER COLUMN "c" DROP NOT NULL',
      'ALTER TABLE "t" ALTER COLUMN "d" DROP DEFAULT',
      'ALTER TABLE "t" ALTER COLUMN "e" DROP DEFAULT',
      'ALTER TABLE "t" ALTER COLUMN "e" TYPE varchar(40)',
      `ALTER TABLE "t" ALTER COLUMN "e" SET DEFAULT 'x'`,
      'ALTER TABLE "t" ALTER COLUMN "e" SET NOT NULL',
      'ALTER TABLE "t" ALTER COLUMN "f" TYPE integer USING "f"::integer',
    ])
  })

  test('foreign keys: named <table>_<column>_fkey, ON DELETE always written; modifyColumn adds, replaces and drops them', () => {
    expect(
      operationSql(
        createTable('posts', [
          { name: 'id', type: 'id', primaryKey: true },
          { name: 'user_id', type: 'integer', nullable: false, references: { table: 'users' } },
          { name: 'parent_id', type: 'integer', references: { table: 'posts', onDelete: 'cascade' } },
          { name: 'code', type: 'string', references: { table: 'codes', column: 'code', onDelete: 'set_null' } },
        ]),
      ),
    ).toEqual([
      'CREATE TABLE "posts" ("id" bigserial PRIMARY KEY, "user_id" integer NOT NULL CONSTRAINT "posts_user_id_fkey" REFERENCES "users" ("id") ON DELETE NO ACTION, ' +
        '"parent_id" integer CONSTRAINT "posts_parent_id_fkey" REFERENCES "posts" ("id") ON DELETE CASCADE, ' +
        '"code" varchar(255) CONSTRAINT "posts_code_fkey" REFERENCES "codes" ("code") ON DELETE SET NULL)',
    ])
    expect(
      operationSql(
        alterTable('posts', [
          addColumn({ name: 'editor_id', type: 'integer', references: { table: 'users', onDelete: 'restrict' } }),
          modifyColumn('user_id', { references: { table: 'users', onDelete: 'cascade' } }),
          modifyColumn('parent_id', { references: null }),
          modifyColumn('code', { type: 'text', references: { table: 'codes', column: 'code' } }),
        ]),
      ),
    ).toEqual([
      'ALTER TABLE "posts" ADD COLUMN "editor_id" integer CONSTRAINT "posts_editor_id_fkey" REFERENCES "users" ("id") ON DELETE RESTRICT',
      'ALTER TABLE "posts" DROP CONSTRAINT IF EXISTS "posts_user_id_fkey"',
      'ALTER TABLE "posts" ADD CONSTRAINT "posts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE',
      'ALTER TABLE "posts" DROP CONSTRAINT "posts_parent_id_fkey"',
      // The old key goes before the type change, the new one after it.
      'ALTER TABLE "posts" DROP CONSTRAINT IF EXISTS "posts_code_fkey"',
      'ALTER TABLE "posts" ALTER COLUMN "code" TYPE text',
      'ALTER TABLE "posts" ADD CONSTRAINT "posts_code_fkey" FOREIGN KEY ("code") REFERENCES "codes" ("code") ON DELETE NO ACTION',
    ])
    expect(() =>
      operationSql(
        createTable('p', [
          { name: 'u', type: 'integer', references: { table: 'users', onDelete: 'nothing' as never } },
        ]),
      ),
    ).toThrow('column u: onDelete "nothing" is not one of no_action, restrict, cascade, set_null')
    expect(
      operationSql(
        alterTable('posts', [
          addColumn({ name: 'owner_id', type: 'integer', references: { table: 'users', onUpdate: 'cascade' } }),
          modifyColumn('user_id', { references: { table: 'users', onDelete: 'set_null', onUpdate: 'restrict' } }),
        ]),
      ),
    ).toEqual([
      'ALTER TABLE "posts" ADD COLUMN "owner_id" integer CONSTRAINT "posts_owner_id_fkey" REFERENCES "users" ("id") ON DELETE NO ACTION ON UPDATE CASCADE',
      'ALTER TABLE "posts" DROP CONSTRAINT IF EXISTS "posts_user_id_fkey"',
      'ALTER TABLE "posts" ADD CONSTRAINT "posts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE RESTRICT',
    ])
    expect(() =>
      operationSql(
        createTable('p', [{ name: 'u', type: 'integer', references: { table: 'users', onUpdate: 'x' as never } }]),
      ),
    ).toThrow('column u: onUpdate "x" is not one of no_action, restrict, cascade, set_null')
    // A name PostgreSQL would truncate is refused rather than silently differing from ours.
    expect(() =>
      operationSql(createTable('t'.repeat(55), [{ name: 'user_id', type: 'integer', references: { table: 'users' } }])),
    ).toThrow('longer than 63 bytes')
  })

  test('indexes and table drops', () => {
    expect(operationSql(createIndex('t', ['a', 'b'], { unique: true }))).toEqual([
      'CREATE UNIQUE INDEX "t_a_b_index" ON "t" ("a", "b")',
    ])
    expect(operationSql(createIndex('t', ['a'], { name: 'by_a' }))).toEqual(['CREATE INDEX "by_a" ON "t" ("a")'])
    expect(operationSql(dropIndex('t', 'by_a'))).toEqual(['DROP INDEX "by_a"'])
    expect(operationSql(dropTable('t'))).toEqual(['DROP TABLE "t"'])
  })

  test('a partial index ends in WHERE (predicate); a check is a named table constraint', () => {
    expect(
      operationSql(createIndex('users', ['email'], { unique: true, where: 'deleted_at IS NULL', concurrently: true })),
    ).toEqual(['CREATE UNIQUE INDEX CONCURRENTLY "users_email_index" ON "users" ("email") WHERE (deleted_at IS NULL)'])
    expect(operationSql(addCheck('products', 'price_positive', 'price > 0'))).toEqual([
      'ALTER TABLE "products" ADD CONSTRAINT "price_positive" CHECK (price > 0)',
    ])
    expect(operationSql(dropCheck('products', 'price_positive'))).toEqual([
      'ALTER TABLE "products" DROP CONSTRAINT "price_positive"',
    ])
    expect(operationSql(addCheck('products', 'price_positive', 'price > 0', { notValid: true }))).toEqual([
      'ALTER TABLE "products" ADD CONSTRAINT "price_positive" CHECK (price > 0) NOT VALID',
    ])
    expect(operationSql(validateCheck('products', 'price_positive'))).toEqual([
      'ALTER TABLE "products" VALIDATE CONSTRAINT "price_positive"',
    ])
    // A hand-written migration's operations, written back as the generator writes a file.
    expect(
      renderMigration(
        [addCheck('products', 'price_positive', 'price > 0', { notValid: true })],
        [validateCheck('products', 'price_positive')],
        'vela/dbl',
      ),
    ).toMatch(
      /addCheck\('products', 'price_positive', 'price > 0', \{ notValid: true \}\)[\s\S]*validateCheck\('products', 'price_positive'\)/,
    )
    expect(() => operationSql(addCheck('products', 'c', ' '))).toThrow('addCheck c: give a SQL expression')
    expect(() => operationSql(createIndex('t', ['a'], { where: '' }))).toThrow(
      'createIndex t_a_index: where: give a SQL expression',
    )
    expect(() => operationSql(addCheck('products', 'c'.repeat(64), 'true'))).toThrow('longer than 63 bytes')
  })

  test('identifiers are quoted, so SQL metacharacters in names stay names', () => {
    expect(operationSql(dropTable('x"; DROP TABLE users; --'))).toEqual(['DROP TABLE "x""; DROP TABLE users; --"'])
  })

  test('bad input is refused with the column named', () => {
    const col = (c: object) => () => operationSql(createTable('p', [c as never]))
    expect(col({ name: 'price', type: 'integer', default: 1.5 })).toThrow(
      'column p.price: default 1.5 does not fit type integer',
    )
    expect(col({ name: 'on', type: 'boolean', default: 'yes' })).toThrow(
      'column p.on: default "yes" does not fit type boolean',
    )
    expect(col({ name: 'tags', type: { array: 'text' }, default: 'a' })).toThrow(
      'column p.tags: default "a" does not fit type {"array":"text"}',
    )
    expect(col({ name: 'id', type: 'id', default: 1 })).toThrow('an id column takes its default from its sequence')
    expect(col({ name: 'code', type: 'string', size: 0 })).toThrow('size 0 is not a VARCHAR size')
    expect(col({ name: 'x', type: 'money' })).toThrow('unknown column type "money"')
    expect(col({ name: 'a'.repeat(64), type: 'text' })).toThrow('longer than 63 bytes')
    expect(() => operationSql(createTable('p', []))).toThrow('createTable p: a table needs at least one column')
    expect(() =>
      operationSql(
        createTable('p', [
          { name: 'a', type: 'text' },
          { name: 'a', type: 'text' },
        ]),
      ),
    ).toThrow('column "a" appears twice')
    expect(() => operationSql(alterTable('p', [modifyColumn('a', {})]))).toThrow('modifyColumn p.a: nothing to modify')
    expect(() => operationSql(alterTable('p', [modifyColumn('a', { size: 3 })]))).toThrow(
      '`size` needs `type` next to it',
    )
    expect(() => operationSql(alterTable('p', [modifyColumn('a', { default: ['x'] })]))).toThrow(
      "an array default needs the column's `type`",
    )
    expect(() => operationSql({ op: 'truncate' } as never)).toThrow('unknown migration operation "truncate"')
  })
})
