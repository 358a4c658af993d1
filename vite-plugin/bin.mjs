#!/usr/bin/env node
// The `vela` command: the compiled CLI (npm run build writes dist/). An app's own modules,
// vite.config.ts included, are loaded by Vite, so no TypeScript loader is needed here.
const { main } = await import('../dist/vite-plugin/cli/cli.js')
process.exitCode = await main(process.argv.slice(2))
