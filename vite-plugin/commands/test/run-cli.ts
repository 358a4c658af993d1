// Spawns the real `vela` binary (vite-plugin/bin.mjs) for the commands' end-to-end tests.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin.mjs', import.meta.url))
export const FIXTURE = fileURLToPath(new URL('./fixtures/app', import.meta.url))
export const PLAYGROUND = fileURLToPath(new URL('../../../playground', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const clean = { ...process.env, PORT: '', VELA_ENV: '', ...env }
    execFile(process.execPath, [BIN, ...args], { env: clean, timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}
