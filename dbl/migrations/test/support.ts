/**
 * Test backends for the migration suites: one case list, run on embedded PGlite and on the
 * PostgreSQL server (a fresh `vela_mig_<random>` database per run, dropped afterwards).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe } from 'vitest'
import type { Adapter } from '../../adapters/adapter.ts'
import { createPgAdapter } from '../../adapters/pg.ts'
import { createPgliteAdapter } from '../../adapters/pglite.ts'
import { freshPostgresDatabase, serviceAvailable } from '../../../test/support/services.ts'

/** Absolute path of the helpers, used as the import specifier of generated files in tests. */
export const OPERATIONS_MODULE = fileURLToPath(new URL('../operations.ts', import.meta.url))

export interface Database {
  readonly adapter: Adapter
  /** Set for the server backend: lets child processes connect to the same database. */
  readonly url: string | undefined
  /** Empties the database (public schema) between cases. */
  reset(): Promise<void>
  dispose(): Promise<void>
}

export interface Backend {
  readonly name: 'pglite' | 'postgres'
  available(): Promise<boolean>
  open(): Promise<Database>
}

const reset = (adapter: Adapter) => async () => {
  // The job engine's tables (vela/jobs) live in a schema of their own.
  await adapter.query('DROP SCHEMA IF EXISTS vela_jobs CASCADE')
  await adapter.query('DROP SCHEMA public CASCADE')
  await adapter.query('CREATE SCHEMA public')
}

export const pglite: Backend = {
  name: 'pglite',
  available: async () => true,
  async open() {
    const adapter = await createPgliteAdapter()
    return { adapter, url: undefined, reset: reset(adapter), dispose: () => adapter.close() }
  },
}

export const postgres: Backend = {
  name: 'postgres',
  available: () => serviceAvailable('postgres'),
  async open() {
    const db = await freshPostgresDatabase('vela_mig')
    const adapter = createPgAdapter({ url: db.url, poolSize: 4 })
    return {
      adapter,
      url: db.url,
      reset: reset(adapter),
      async dispose() {
        await adapter.close()
        await db.drop()
      },
    }
  },
}

export const backends: readonly Backend[] = [pglite, postgres]

/**
 * Registers `body` once for each backend that is up, under `<title> on <backend>`: `db` reads
 * through to that backend's database, opened once for the group and emptied before each test.
 * Awaited at the top of a test file (it asks which backends are up).
 */
export async function onEachBackend(title: string, body: (db: Database) => void): Promise<void> {
  for (const backend of backends) {
    const available = await backend.available()
    describe.skipIf(!available)(`${title} on ${backend.name}`, () => {
      let opened: Database | undefined
      const db: Database = {
        get adapter() {
          return opened!.adapter
        },
        get url() {
          return opened!.url
        },
        reset: () => opened!.reset(),
        dispose: () => opened!.dispose(),
      }
      beforeAll(async () => {
        opened = await backend.open()
      })
      afterAll(async () => {
        await opened?.dispose()
      })
      beforeEach(() => opened!.reset())
      body(db)
    })
  }
}

export async function tempDir(prefix = 'vela-mig-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
