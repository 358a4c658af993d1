import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describe } from 'vitest'
import { createPgAdapter } from '../adapters/pg.ts'
import { POSTGRES_URL, serviceAvailable } from '../../test/support/services.ts'
import { repoCases } from './repo-cases.ts'

const available = await serviceAvailable('postgres')

/** Runs SQL on the server's maintenance connection (CREATE/DROP DATABASE cannot run in a pool transaction). */
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

// A fresh database per run, dropped afterwards, so runs never see each other's rows.
describe.skipIf(!available)('repository on PostgreSQL (fresh database)', () => {
  repoCases(async () => {
    const name = `vela_test_${randomBytes(6).toString('hex')}`
    await admin(`create database ${name}`)
    const url = new URL(POSTGRES_URL)
    url.pathname = `/${name}`
    const adapter = createPgAdapter({ url: url.toString(), poolSize: 4 })
    return {
      adapter,
      async close() {
        await adapter.close()
        await admin(`drop database if exists ${name} with (force)`)
      },
    }
  })
})
