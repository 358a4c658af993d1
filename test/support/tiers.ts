/**
 * The test files `npm run test:quick` leaves out, and why: each builds an app (`vite build`, the
 * release), installs the packed package, drives Chromium, starts nginx, Prometheus or a PostgreSQL
 * cluster of its own, or boots an app through Vite's dev server in a child process. They are most
 * of `npm test`'s time; the rest (the runtime's own tests, the CLI's inspection, telemetry,
 * in-process fault tests) is the quick tier for the edit–test loop. `npm test` runs everything.
 */
export const endToEnd: readonly string[] = [
  // vite build and the release, their runners and the files they put under dist/
  'vite-plugin/build/**/*.test.ts',
  'vite-plugin/temp-files.test.ts',
  'vite-plugin/typed-client.test.ts',
  // the dev server and the dashboard through Vite
  'vite-plugin/dev/**/*.test.ts',
  'vite-plugin/dashboard/dashboard.test.ts',
  // CLI commands that load apps through Vite or run redocly
  'vite-plugin/cli/commands/test/{cli-vite-load,inspect-cache,migrate-embedded,gen-resource,db-seed}.test.ts',
  // the OpenAPI document of an app loaded through Vite, and redocly on it
  'vite-plugin/openapi/test/{contract,lint}.test.ts',
  // the packed package installed into new apps (with telemetry, with jobs: new-app-jobs), and an app's own vitest
  'test/new-app*.test.ts',
  'test/app-tests.test.ts',
  // the 0.1 starter built, tested and served from the packed package, as it was and upgraded
  'test/old-starter.test.ts',
  // the tutorial (docs/getting-started.md) followed from the packed package: dev server, tests, build
  'test/tutorial.test.ts',
  // the example apps (examples/*) type-checked, tested, built and served from the packed package
  'test/examples.test.ts',
  // the playground served by `vela serve`, and in Chromium
  'test/playground*.test.ts',
  'test/dashboard-browser.test.ts',
  // vela gen auth --passkeys in a new app from the packed package, under vite, in Chromium
  'test/auth-browser.test.ts',
  // the documentation site: a VitePress build and Chromium
  'test/docs-site.test.ts',
  // several instances behind nginx, built clusters
  'test/cluster/**/*.test.ts',
  // faults against a PostgreSQL cluster of their own, built apps and child processes
  'test/faults/{database,shutdown,websocket-config,brute-force}.test.ts',
  // job workers in child processes, killed and stopped; a schedule's minute ticks
  'jobs/test/processes.test.ts',
  'test/jobs-app.test.ts',
  // Prometheus and promtool scraping a server
  'telemetry/prometheus-scrape.test.ts',
]
