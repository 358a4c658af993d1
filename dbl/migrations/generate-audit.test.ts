/**
 * The audit table comes with the generated migrations: the first audited schema brings
 * `vela_audit` (through the closed loop of test/round-trip.ts, on PGlite and PostgreSQL), a second
 * one changes nothing, and the audit table stays while any schema is audited.
 */
import { expect, test } from 'vitest'
import { AUDIT_TABLE } from '../audit/entry.ts'
import { defineSchema } from '../schema.ts'
import { modelFromSchemas } from './model.ts'
import { roundTrips, rows, type Case } from './test/round-trip.ts'

const posts = (audit: boolean) => defineSchema({ table: 'posts', fields: { id: 'id', title: 'string' }, audit })
const users = (audit: boolean) => defineSchema({ table: 'users', fields: { id: 'id', email: 'string' }, audit })

const cases: Case[] = [
  {
    name: 'audit: the first audited schema brings the audit table, later ones change nothing',
    steps: [
      { schemas: [posts(false), users(false)], name: 'update_schema' },
      {
        schemas: [posts(true), users(false)],
        name: `create_${AUDIT_TABLE}`,
        ops: [`createTable ${AUDIT_TABLE}`, `createIndex ${AUDIT_TABLE}.${AUDIT_TABLE}_table_name_record_id_index`],
        verify: async (c) => {
          await c.query(
            `INSERT INTO ${AUDIT_TABLE} (table_name, record_id, action, actor, changes, recorded_at) VALUES ('posts', '1', 'insert', '7', '{"title":[null,"a"]}', now())`,
          )
          expect(await rows(c, `SELECT table_name, actor, changes FROM ${AUDIT_TABLE}`)).toEqual([
            { table_name: 'posts', actor: 7, changes: { title: [null, 'a'] } },
          ])
        },
      },
      { schemas: [posts(true), users(true)], name: null },
    ],
  },
]

await roundTrips('generated migrations: the audit table', cases)

test('no audited schema: no audit table in the model', () => {
  expect(modelFromSchemas([posts(false)]).has(AUDIT_TABLE)).toBe(false)
  expect(modelFromSchemas([posts(true)]).has(AUDIT_TABLE)).toBe(true)
})
