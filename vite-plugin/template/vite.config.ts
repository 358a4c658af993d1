import { defineConfig } from 'vite'
import vela from 'vela/vite'

// `vite` runs the app with hot swaps, `vite build` writes dist/server/index.mjs, and vitest uses
// this config too (the plugin leaves the app to `createTestApp` there).
export default defineConfig({ plugins: [vela()] })
