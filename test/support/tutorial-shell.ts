/**
 * The tutorial's commands as a reader types them in a terminal: one bash command line at a time,
 * and servers (`npm run dev`, `npm start`) left running in the background, each in a process group
 * of its own so that stopping it stops npm and the node process it started, as Ctrl-C does.
 */
import { execFile, spawn } from 'node:child_process'
import { userEnv } from '../../vite-plugin/test/user-process.ts'
import { listeningPort } from './listening.ts'

/** Runs one command line with bash in `cwd`; resolves with stdout, then stderr, rejects with them on a non-zero exit. */
export function runLine(cwd: string, line: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', line], { cwd, env: userEnv(env), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      // On lines of their own: curl's progress meter (stderr, when stdout is not a terminal) is
      // not glued to a body that ends without a newline.
      const output = `${stdout}\n${stderr}`
      if (err) reject(new Error(`\`${line}\` (in ${cwd}) failed: ${err.message}\n${output}`))
      else resolve(output)
    })
  })
}

export interface BackgroundServer {
  readonly port: number
  /** Everything it printed so far. */
  output(): string
  /** SIGINT to its process group (what Ctrl-C sends), and waits until every process of the group is gone. */
  stop(): Promise<void>
}

/**
 * Starts `line` with bash in the background on a port of the system's choosing (`PORT=0`), and
 * resolves once it has printed where it listens and answers there.
 */
export async function startServer(
  cwd: string,
  line: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 180_000,
): Promise<BackgroundServer> {
  let out = ''
  const proc = spawn('bash', ['-c', line], {
    cwd,
    env: userEnv({ ...env, PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  proc.stdout.on('data', (d) => (out += d))
  proc.stderr.on('data', (d) => (out += d))
  const group = proc.pid!
  const stop = async () => {
    signal(group, 'SIGINT')
    const deadline = performance.now() + 20_000
    while (signal(group, 0)) {
      if (performance.now() > deadline) signal(group, 'SIGKILL')
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const start = performance.now()
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`\`${line}\` exited ${proc.exitCode} before answering:\n${out}`)
    if (performance.now() - start > timeoutMs) {
      await stop()
      throw new Error(`\`${line}\` did not answer within ${timeoutMs} ms:\n${out}`)
    }
    const port = listeningPort(out)
    const answered =
      port !== undefined &&
      (await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' }).then(
        (r) => r.status < 500,
        () => false,
      ))
    if (answered) return { port, output: () => out, stop }
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Sends a signal to a process group; false once the group has no process left. */
function signal(group: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, sig)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw err
  }
}
