/**
 * Embedded and virtual fields through the generator's closed loop (test/round-trip.ts), on PGlite
 * and PostgreSQL: embeds become jsonb columns (a default as a jsonb literal), virtual fields no
 * column at all, and adding a virtual field later changes nothing in the database.
 */
import { expect } from 'vitest'
import { defineEmbeddedSchema, embedsOne } from '../embedded.ts'
import { defineSchema } from '../schema.ts'
import { Account } from '../test/schemas-changesets.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'

// Account's fields as given to defineSchema again (a normalised field is a valid field spec).
const accountFields = Object.fromEntries(Account.fields.map((f) => [f.name, f]))
const Prefs = defineEmbeddedSchema({ name: 'prefs', fields: { theme: 'string', beta: 'boolean' } })
const withMore = defineSchema({
  table: 'cs_accounts',
  fields: { ...accountFields, nickname: { type: 'string', virtual: true }, prefs: embedsOne(Prefs) },
})

const cases: Case[] = [
  {
    name: 'embeds are jsonb columns, virtual fields none; a virtual field added later needs no migration',
    steps: [
      {
        schemas: [Account],
        name: 'create_cs_accounts',
        ops: ['createTable cs_accounts'],
        seed: [`INSERT INTO cs_accounts (email) VALUES ('a@x.io')`],
        verify: async (c) => {
          expect(
            await rows(
              c,
              `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'cs_accounts' AND column_name IN ('address', 'items', 'password') ORDER BY column_name`,
            ),
          ).toEqual([
            { column_name: 'address', data_type: 'jsonb' },
            { column_name: 'items', data_type: 'jsonb' },
          ])
          expect(await rows(c, 'SELECT items, address, lock_version FROM cs_accounts')).toEqual([
            { items: [], address: null, lock_version: 1 },
          ])
        },
      },
      {
        schemas: [
          defineSchema({
            table: 'cs_accounts',
            fields: { ...accountFields, nickname: { type: 'string', virtual: true } },
          }),
        ],
        name: null,
      },
      { schemas: [withMore], name: 'alter_cs_accounts', ops: ['addColumn cs_accounts.prefs'] },
    ],
  },
]

await roundTrips('generated migrations for embedded and virtual fields', cases)
