import { fileURLToPath } from 'node:url'
import { defineRepo } from 'vela/dbl'

/**
 * PostgreSQL when DATABASE_URL is set; otherwise embedded PGlite keeping its data in
 * playground/.data/pglite (or VELA_PLAYGROUND_DATA): nothing to install.
 */
const url = process.env.DATABASE_URL || undefined
export const repo = defineRepo({
  name: 'playground_repo',
  url,
  dataDir: url ? undefined : process.env.VELA_PLAYGROUND_DATA || fileURLToPath(new URL('../.data/pglite', import.meta.url)),
})
