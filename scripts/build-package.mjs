#!/usr/bin/env node
// Builds the published package into dist/: tsc compiles every source module (.js + .d.ts, same
// folders, relative imports rewritten to .js), then the declaration files' relative `.ts`
// specifiers are rewritten to `.js` too (tsc keeps them as written in .d.ts, which only
// TypeScript-aware consumers resolve), and the files read at run time beside the modules
// (`vela new`'s and `vela gen auth`'s templates) are copied. Runs on `npm install` (prepare), `npm pack`, and before the
// tests (vitest's global setup), in about a second.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const dist = join(root, 'dist')

rmSync(dist, { recursive: true, force: true })
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
  { stdio: 'inherit' },
)
if (tsc.status !== 0) process.exit(tsc.status ?? 1)

const RELATIVE_TS = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue
  const path = join(dist, file)
  const text = readFileSync(path, 'utf8')
  const rewritten = text.replace(RELATIVE_TS, '$1$2.js$3')
  if (rewritten !== text) writeFileSync(path, rewritten)
}

for (const dir of [
  'vite-plugin/template',
  'vite-plugin/cli/commands/gen-auth/template',
  'vite-plugin/dashboard/assets',
]) {
  if (existsSync(join(root, dir))) cpSync(join(root, dir), join(dist, dir), { recursive: true })
}
