#!/usr/bin/env node
// The `vela` command: the compiled CLI (npm run build writes dist/). An app's own modules,
// vite.config.ts included, are loaded by the CLI's light loader or by Vite
// (vite-plugin/light/for-app.ts), so no TypeScript loader is needed here.
import module from 'node:module'

const argv = process.argv.slice(2)
// The embedded database (PGlite, PostgreSQL compiled to WebAssembly) and V8's optimizing compiler:
// with V8's default tiering, TurboFan spends seconds of CPU and ~400 MB (more as migrations and
// seeds run) on PostgreSQL's code while a database starts, which `vela migrate`'s few statements
// never repay, nor a development server's small queries (the playground's `vela serve`: 1.08 GB at
// start, 515 MB with the flag). So both compile WebAssembly with Liftoff, V8's baseline compiler,
// only. V8 reads the flag at start-up only: the process replaces itself with one that has it
// (where Node can). The built server (`node dist/server/index.mjs`) keeps V8's defaults.
const LIFTOFF_ONLY = new Set(['migrate', 'serve'])
const flag = LIFTOFF_ONLY.has(argv[0]) ? '--liftoff-only' : undefined
if (flag && !process.execArgv.includes(flag) && process.execve) {
  try {
    process.execve(process.execPath, [process.execPath, flag, ...process.execArgv, ...process.argv.slice(1)])
  } catch {
    // Not on this platform: the command runs as it is.
  }
}
// Compiled code kept on disk between runs, as Vite's own command does.
module.enableCompileCache?.()
const { main } = await import('../dist/vite-plugin/cli/cli.js')
process.exitCode = await main(argv)
