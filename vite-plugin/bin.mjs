#!/usr/bin/env node
// The `vela` command. TypeScript sources (the CLI, the app) are loaded through tsx's ESM hooks.
import { register } from 'tsx/esm/api'

register()
await import('./cli.ts')
