// Temporary files of generated files: a write that fails removes its temporary file, and
// `vite build` refuses a stray one (left by a process killed mid-write) rather than copying it
// into dist/, where the built server would serve it.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'vite'
import { expect, it } from 'vitest'
import { inspectApp } from './cli/commands/load.ts'
import { writeOpenApi } from './openapi/write.ts'
import vela from './index.ts'
import { useTempDirs } from './test/built-app.ts'

const temp = useTempDirs()
const { table } = inspectApp({ bootstrapApplication: 'shop', routes: {} })

it('a generated file whose write fails leaves no temporary file behind', async () => {
  const dir = temp.dir('vela-temp-')
  // openapi.json is a folder holding a file: writing the document beside it works, renaming it over the folder cannot.
  mkdirSync(join(dir, 'openapi.json'))
  writeFileSync(join(dir, 'openapi.json', 'keep'), '')
  await expect(writeOpenApi(dir, 'shop', table, { output: 'openapi.json' })).rejects.toThrow()
  expect(readdirSync(dir)).toEqual(['openapi.json'])
})

it('vite build fails naming a stray *.tmp file in priv/, and copies nothing of priv/ into dist/', async () => {
  const root = temp.fixture('site')
  mkdirSync(join(root, 'priv/assets'), { recursive: true })
  writeFileSync(join(root, 'priv/assets/openapi.json.1a2b3c4d.tmp'), '')
  const built = build({ root, configFile: false, plugins: [vela()], logLevel: 'silent' })
  await expect(built).rejects.toThrow(
    '[vela build] stray temporary file priv/assets/openapi.json.1a2b3c4d.tmp: left by a write that was interrupted, not copied into the build; delete it and build again',
  )
  expect(existsSync(join(root, 'dist/priv'))).toBe(false)
  // The build's own writes left none of theirs.
  expect(readdirSync(join(root, 'priv/assets')).filter((f) => f.endsWith('.tmp'))).toEqual([
    'openapi.json.1a2b3c4d.tmp',
  ])
}, 120_000)
