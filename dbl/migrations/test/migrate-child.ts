/**
 * One "app instance" for the concurrency test: loads the migrations, connects, says `ready`, waits
 * for `go` on stdin (so all instances start migrating at the same moment), migrates, and prints the
 * versions it applied itself as JSON.
 */
import { createInterface } from 'node:readline'
import { createPgAdapter } from '../../adapters/pg.ts'
import { loadMigrations } from '../load.ts'
import { migrate } from '../migrator.ts'

const [url, dir] = process.argv.slice(2)
if (!url || !dir) throw new Error('usage: migrate-child.ts <postgres url> <migrations dir>')

const migrations = await loadMigrations(dir)
const adapter = createPgAdapter({ url, poolSize: 3 })
await adapter.query('SELECT 1')
process.stdout.write('ready\n')
const lines = createInterface({ input: process.stdin })
for await (const line of lines) if (line === 'go') break
lines.close()
try {
  const applied = await migrate(adapter, migrations)
  process.stdout.write(`${JSON.stringify(applied.map((m) => m.version))}\n`)
} finally {
  await adapter.close()
}
