// Test support: commands run as a user runs them in the app's folder (`vela …`, `vitest run`), in
// a child process whose environment is the test's minus what vitest and Vela's own settings put
// there (a child inheriting `VITEST` would believe it is under tests).
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { BIN } from './built-app.ts'

const VITEST_BIN = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')

export interface Run {
  readonly code: number
  /** stdout and stderr, in the order written. */
  readonly output: string
}

/** The environment of a user's shell: no vitest variables, no VELA_ENV, no DATABASE_URL, no colours. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
  for (const key of Object.keys(env)) if (/^(VITEST|VELA_|DATABASE_URL$|TEST$|NODE_ENV$)/.test(key)) delete env[key]
  return { ...env, ...extra }
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { cwd, env: userEnv(env), maxBuffer: 16 * 1024 * 1024 }, () => {})
    let output = ''
    child.stdout!.on('data', (d) => (output += d))
    child.stderr!.on('data', (d) => (output += d))
    child.once('close', (code) => resolve({ code: code ?? -1, output }))
  })
}

/** `vela <args>` in the app's folder. */
export const vela = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  run([BIN, ...args, '--root', dir], dir, env)

/** `vitest run <args>` in the app's folder, with its own vite.config.ts, unflagged. */
export const vitestRun = (dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  run([VITEST_BIN, 'run', ...args], dir, env)
