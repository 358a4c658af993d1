#!/usr/bin/env node
// The `vela` command: the compiled CLI (npm run build writes dist/). An app's own modules,
// vite.config.ts included, are loaded by the CLI's light loader or by Vite
// (vite-plugin/light/for-app.ts), so no TypeScript loader is needed here.
import module from 'node:module'

const argv = process.argv.slice(2)
// `vela migrate` starts the embedded database (PGlite, PostgreSQL compiled to WebAssembly): V8's
// optimizing compiler spends ~2 s of CPU and ~400 MB on PostgreSQL's code that a few migrations
// never repay, so the process runs with Liftoff, V8's baseline WebAssembly compiler, only. The flag
// is read at start-up only: the process replaces itself with one that has it (where Node can).
if (argv[0] === 'migrate' && !process.execArgv.includes('--liftoff-only') && process.execve) {
  try {
    process.execve(process.execPath, [
      process.execPath,
      '--liftoff-only',
      ...process.execArgv,
      ...process.argv.slice(1),
    ])
  } catch {
    // Not on this platform: the command runs as it is.
  }
}
// Compiled code kept on disk between runs, as Vite's own command does.
module.enableCompileCache?.()
const { main } = await import('../dist/vite-plugin/cli/cli.js')
process.exitCode = await main(argv)
