/**
 * Three processes migrate the same PostgreSQL database at the same moment: each migration must be
 * applied exactly once (by exactly one of them), and all three must finish successfully.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { createPgAdapter } from '../adapters/pg.ts'
import { freshPostgresDatabase } from '../../test/support/services.ts'
import { OPERATIONS_MODULE, postgres, tempDir } from './test/support.ts'

const CHILD = fileURLToPath(new URL('./test/migrate-child.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const files: Record<string, string> = {
  m20240101000000_create_log: `createTable('migration_log', [{ name: 'id', type: 'id', primaryKey: true }, { name: 'entry', type: 'text', nullable: false }]),
    execute("INSERT INTO migration_log (entry) VALUES ('create_log')")`,
  // A slow migration widens the window in which a second instance could slip in without the lock.
  m20240101000001_create_items: `createTable('items', [{ name: 'id', type: 'id', primaryKey: true }, { name: 'title', type: 'string' }]),
    execute("SELECT pg_sleep(0.3)"),
    execute("INSERT INTO migration_log (entry) VALUES ('create_items')")`,
  m20240101000002_alter_items: `alterTable('items', [addColumn({ name: 'qty', type: 'integer', default: 0 })]),
    execute("INSERT INTO migration_log (entry) VALUES ('alter_items')")`,
}

interface Child {
  proc: ChildProcess
  out: string[]
  err: string
  exit: Promise<number | null>
}

function startChild(url: string, dir: string): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, url, dir], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const child: Child = { proc, out: [], err: '', exit: new Promise((resolve) => proc.on('exit', resolve)) }
  let buffer = ''
  proc.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString()
    const parts = buffer.split('\n')
    buffer = parts.pop()!
    child.out.push(...parts)
  })
  proc.stderr!.on('data', (d: Buffer) => {
    child.err += d.toString()
  })
  return child
}

async function until(check: () => boolean, what: string, ms = 30_000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const available = await postgres.available()

describe.skipIf(!available)('concurrent migrations', () => {
  test('three processes starting together apply each migration exactly once and all exit 0', async () => {
    const db = await freshPostgresDatabase('vela_mig')
    const tmp = await tempDir()
    const children: Child[] = []
    try {
      for (const [name, ops] of Object.entries(files)) {
        const source = `import { addColumn, alterTable, createTable, execute } from ${JSON.stringify(OPERATIONS_MODULE)}
export function up() { return [${ops}] }
export function down() { return [] }
`
        await writeFile(path.join(tmp.dir, `${name}.ts`), source)
      }
      for (let i = 0; i < 3; i++) children.push(startChild(db.url, tmp.dir))
      await until(() => children.every((c) => c.out.includes('ready')), 'three ready children')
      for (const c of children) c.proc.stdin!.write('go\n')
      const codes = await Promise.all(children.map((c) => c.exit))
      expect(codes, children.map((c) => c.err).join('\n')).toEqual([0, 0, 0])

      // Each process reports what it applied itself: together, every version exactly once.
      const appliedBy = children.map((c) => JSON.parse(c.out.at(-1)!) as number[])
      expect(appliedBy.flat().sort()).toEqual([20240101000000, 20240101000001, 20240101000002])

      const adapter = createPgAdapter({ url: db.url, poolSize: 1 })
      try {
        expect((await adapter.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual([
          { version: 20240101000000 },
          { version: 20240101000001 },
          { version: 20240101000002 },
        ])
        expect((await adapter.query('SELECT entry FROM migration_log ORDER BY id')).rows).toEqual([
          { entry: 'create_log' },
          { entry: 'create_items' },
          { entry: 'alter_items' },
        ])
      } finally {
        await adapter.close()
      }
    } finally {
      for (const c of children) if (c.proc.exitCode === null) c.proc.kill()
      await tmp.remove()
      await db.drop()
    }
  }, 60_000)
})
