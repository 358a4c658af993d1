// virtual:vela/migrations at run time: glob modules → the migrations migrate() takes.
import { expect, it } from 'vitest'
import { createTable, defineMigration, dropTable } from '../dbl/migrations/operations.ts'
import { migrationsFromModules } from './bundled-migrations.ts'

const up = () => [createTable('a', [{ name: 'id', type: 'id', primaryKey: true }])]
const down = () => [dropTable('a')]

it('sorts by version, takes names from the file, and accepts named or default exports', () => {
  const warnings: string[] = []
  const list = migrationsFromModules(
    {
      '/src/migrations/m20260102000000_second.ts': { default: defineMigration({ up, down }) },
      '/src/migrations/m20260101000000_first.ts': { up, down },
      '/src/migrations/notes.ts': {},
    },
    (w) => warnings.push(w),
  )
  expect(list.map(({ version, name, file }) => ({ version, name, file }))).toEqual([
    { version: 20260101000000, name: 'first', file: '/src/migrations/m20260101000000_first.ts' },
    { version: 20260102000000, name: 'second', file: '/src/migrations/m20260102000000_second.ts' },
  ])
  expect(list[1]!.up()).toEqual(up())
  expect(warnings).toEqual([
    '[vela migrations] ignoring /src/migrations/notes.ts: a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts',
  ])
})

it('refuses a module without up() and down(), and two files with one version', () => {
  expect(() => migrationsFromModules({ '/src/migrations/m20260101000000_x.ts': { up } })).toThrow(
    'migration /src/migrations/m20260101000000_x.ts does not export down(); a migration exports up() and down() returning operations',
  )
  expect(() =>
    migrationsFromModules({
      '/src/migrations/m20260101000000_x.ts': { up, down },
      '/src/migrations/m20260101000000_y.ts': { up, down },
    }),
  ).toThrow(
    'two migrations share version 20260101000000: /src/migrations/m20260101000000_x.ts and /src/migrations/m20260101000000_y.ts',
  )
})
