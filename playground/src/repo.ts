import { defineRepo } from 'vela/dbl'

/**
 * PostgreSQL when DATABASE_URL is set (`postgres://user:password@host:5432/db`); otherwise
 * embedded PGlite keeping its data between starts in `.data/pglite` under the working directory
 * (`npm start` runs in playground/, so playground/.data/pglite, git-ignored), or in
 * VELA_PLAYGROUND_DATA (the tests give each server a fresh folder): nothing to install. The
 * migrations are applied by the start hook (app.ts).
 */
export const repo = defineRepo({
  name: 'playground_repo',
  url: process.env.DATABASE_URL || undefined,
  dataDir: process.env.VELA_PLAYGROUND_DATA || undefined,
})
