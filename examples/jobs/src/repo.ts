import { defineRepo } from 'vela/dbl'

/**
 * The database. PostgreSQL when DATABASE_URL is set (`postgres://user:password@host:5432/db`);
 * otherwise embedded PGlite, nothing to install: its data stays in `.data/` of the folder the
 * server runs in, and tests get a fresh in-memory database per test file.
 */
export const repo = defineRepo({ url: process.env.DATABASE_URL })
