import { describe, expect, test } from 'vitest'
import { operationSql } from './ddl.ts'
import { addColumn, alterTable, createIndex, createTable, dropColumn, dropIndex, dropTable, modifyColumn, renameColumn } from './operations.ts'

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
        "\"qty\" integer DEFAULT '0', \"ratio\" double precision DEFAULT '1.5', \"on\" boolean DEFAULT 'false', " +
        "\"at\" timestamptz DEFAULT '2024-01-02T03:04:05.000Z', \"day\" date, \"ref\" uuid, \"meta\" jsonb DEFAULT '{\"a\":\"b''c\"}', " +
        "\"tags\" varchar(255)[] DEFAULT '{\"x\",\"y\\\"z\"}', \"state\" varchar(255) DEFAULT 'draft')",
    )
  })

  test('a composite primary key becomes a table constraint', () => {
    expect(operationSql(createTable('pairs', [{ name: 'a', type: 'integer', primaryKey: true }, { name: 'b', type: 'uuid', primaryKey: true }]))).toEqual([
      'CREATE TABLE "pairs" ("a" integer NOT NULL, "b" uuid NOT NULL, PRIMARY KEY ("a", "b"))',
    ])
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
      'ALTER TABLE "t" ALTER COLUMN "c" DROP NOT NULL',
      'ALTER TABLE "t" ALTER COLUMN "d" DROP DEFAULT',
      'ALTER TABLE "t" ALTER COLUMN "e" DROP DEFAULT',
      'ALTER TABLE "t" ALTER COLUMN "e" TYPE varchar(40)',
      `ALTER TABLE "t" ALTER COLUMN "e" SET DEFAULT 'x'`,
      'ALTER TABLE "t" ALTER COLUMN "e" SET NOT NULL',
      'ALTER TABLE "t" ALTER COLUMN "f" TYPE integer USING "f"::integer',
    ])
  })

  test('indexes and table drops', () => {
    expect(operationSql(createIndex('t', ['a', 'b'], { unique: true }))).toEqual(['CREATE UNIQUE INDEX "t_a_b_index" ON "t" ("a", "b")'])
    expect(operationSql(createIndex('t', ['a'], { name: 'by_a' }))).toEqual(['CREATE INDEX "by_a" ON "t" ("a")'])
    expect(operationSql(dropIndex('t', 'by_a'))).toEqual(['DROP INDEX "by_a"'])
    expect(operationSql(dropTable('t'))).toEqual(['DROP TABLE "t"'])
  })

  test('identifiers are quoted, so SQL metacharacters in names stay names', () => {
    expect(operationSql(dropTable('x"; DROP TABLE users; --'))).toEqual(['DROP TABLE "x""; DROP TABLE users; --"'])
  })

  test('bad input is refused with the column named', () => {
    const col = (c: object) => () => operationSql(createTable('p', [c as never]))
    expect(col({ name: 'price', type: 'integer', default: 1.5 })).toThrow('column p.price: default 1.5 does not fit type integer')
    expect(col({ name: 'on', type: 'boolean', default: 'yes' })).toThrow('column p.on: default "yes" does not fit type boolean')
    expect(col({ name: 'tags', type: { array: 'text' }, default: 'a' })).toThrow('column p.tags: default "a" does not fit type {"array":"text"}')
    expect(col({ name: 'id', type: 'id', default: 1 })).toThrow('an id column takes its default from its sequence')
    expect(col({ name: 'code', type: 'string', size: 0 })).toThrow('size 0 is not a VARCHAR size')
    expect(col({ name: 'x', type: 'money' })).toThrow('unknown column type "money"')
    expect(col({ name: 'a'.repeat(64), type: 'text' })).toThrow('longer than 63 bytes')
    expect(() => operationSql(createTable('p', []))).toThrow('createTable p: a table needs at least one column')
    expect(() => operationSql(createTable('p', [{ name: 'a', type: 'text' }, { name: 'a', type: 'text' }]))).toThrow('column "a" appears twice')
    expect(() => operationSql(alterTable('p', [modifyColumn('a', {})]))).toThrow('modifyColumn p.a: nothing to modify')
    expect(() => operationSql(alterTable('p', [modifyColumn('a', { size: 3 })]))).toThrow('`size` needs `type` next to it')
    expect(() => operationSql(alterTable('p', [modifyColumn('a', { default: ['x'] })]))).toThrow("an array default needs the column's `type`")
    expect(() => operationSql({ op: 'truncate' } as never)).toThrow('unknown migration operation "truncate"')
  })
})
