import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['{server,dbl,telemetry,vite-plugin,test}/**/*.test.ts'],
    globalSetup: ['test/support/build-package.ts'],
    // Fixture apps' and the starter app's (vela new) own tests run in their app, by its own vitest.
    exclude: [...configDefaults.exclude, '**/fixtures/**', 'vite-plugin/template/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy (hundreds of MB); two workers fit the 2-core machines.
    maxWorkers: 2,
  },
})
