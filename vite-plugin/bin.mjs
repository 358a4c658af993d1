#!/usr/bin/env node
// The `vela` command. The CLI's TypeScript, and `vela/vite` when Vite loads an app's vite.config.ts,
// are loaded through tsx's ESM hooks; the app's own modules go through Vite (build-import.ts).
import { register } from 'tsx/esm/api'

register()
await import('./cli.ts')
