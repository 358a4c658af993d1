/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import vela from 'vela/vite'

// `vite` runs the app with hot swaps, `vite build` writes dist/server/index.mjs, and vitest uses
// this config too (the plugin leaves the app to `createTestApp` there). The reference above types
// vitest's own block here, such as `test: { env: { DATABASE_URL: '' } }`.
export default defineConfig({ plugins: [vela()] })
