import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{server,dbl,telemetry,vite-plugin,test}/**/*.test.ts'],
    // Fixture apps' own tests run in their app, by its own vitest (test/app-testing.test.ts).
    exclude: [...configDefaults.exclude, '**/fixtures/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy (hundreds of MB); two workers fit the 2-core machines.
    maxWorkers: 2,
  },
})
