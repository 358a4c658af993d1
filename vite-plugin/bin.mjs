#!/usr/bin/env node
// The `vela` command: tsx loads the CLI's TypeScript (until the package ships it compiled).
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./cli.ts')
process.exitCode = await main(process.argv.slice(2))
