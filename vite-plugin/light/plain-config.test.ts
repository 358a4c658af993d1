// Which Vite configs the light loader takes as they are (vela() and inert settings) and which send
// the app to Vite, with the reason; read from the text, never run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { plainConfig } from './plain-config.ts'
import type { LightTools } from './tools.ts'
import { lightTools } from './tools.ts'

const dir = mkdtempSync(join(tmpdir(), 'vela-plain-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let tools: LightTools
beforeAll(async () => {
  tools = (await lightTools())!
})

const verdict = (text: string, name = 'vite.config.ts') => {
  const file = join(dir, name)
  writeFileSync(file, text)
  return plainConfig(file, tools.parse)
}
const head = "import vela from 'vela/vite'\n"

it('vela() alone, with defineConfig, literal settings and type imports, is plain (a computed value is not); vela({ app }) names the module', () => {
  expect(verdict(`${head}export default { plugins: [vela()] }`)).toEqual({ app: undefined })
  expect(
    verdict(`/// <reference types="vitest/config" />
import { defineConfig, type UserConfig } from 'vite'
import type { Plugin } from 'vite'
${head}
export default defineConfig({
  plugins: [vela({ app: '/src/main.ts', openapi: '3.1', dev: { debounceMs: 50 } })],
  server: { port: Number.NaN === 1 ? 1 : 3000, host: process.env.HOST ?? '127.0.0.1' },
  test: { env: { DATABASE_URL: '' } },
} satisfies UserConfig)`),
  ).toEqual({ fallback: 'vite.config.ts: computes server' })
  expect(
    verdict(`import { defineConfig } from 'vite'
${head}export default defineConfig({ plugins: [vela({ app: '/src/main.ts' })], server: { port: 3000, host: process.env.HOST || '127.0.0.1' }, test: { env: { A: '' } }, clearScreen: false })`),
  ).toEqual({ app: '/src/main.ts' })
})

it('anything that may change how Vite loads the modules sends the app to Vite', () => {
  const cases: [string, string][] = [
    [`${head}export default { plugins: [vela()], resolve: { alias: { '@': '/src' } } }`, 'sets resolve'],
    [`${head}import other from 'other'\nexport default { plugins: [vela(), other()] }`, 'imports other'],
    [`${head}export default { plugins: [vela(), []] }`, 'has plugins other than vela()'],
    [
      `${head}export default { plugins: [vela({ app: 'src/app.ts' })] }`,
      'gives vela() an app that is not a path from the root',
    ],
    [`${head}const app = '/src/app.ts'\nexport default { plugins: [vela({ app })] }`, 'has a VariableDeclaration'],
    [`${head}export default () => ({ plugins: [vela()] })`, 'does not export a config object'],
    [`${head}export default { plugins: [vela()], define: { X: '1' } }`, 'sets define'],
    [`${head}export default { plugins: [vela()], ['ssr']: {} }`, 'sets a computed key'],
    ['export default { plugins: [] }', 'has plugins other than vela()'],
    [`${head}export default {`, 'does not parse'],
  ]
  for (const [text, why] of cases) expect(verdict(text), text).toEqual({ fallback: `vite.config.ts: ${why}` })
  expect(verdict('module.exports = {}', 'vite.config.cjs')).toEqual({ fallback: 'vite.config.cjs: a CommonJS config' })
})
