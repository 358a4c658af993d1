/**
 * nginx (Debian's /usr/sbin/nginx) in front of instances, for the cluster suite and `npm run bench
 * -- scale`. It runs deploy/nginx.conf itself, the file users copy, rendered for the run: the
 * instances' ports in the upstream (one `server` line per instance, with the file's parameters),
 * a free port on 127.0.0.1 to listen on, and the pid file, logs and temp paths in a fresh folder
 * (`nginx -p <dir> -c <dir>/nginx.conf`, in the foreground, as this process's child).
 *
 * Where nginx is missing the suites that need it skip with a message; under CI it is a failure
 * (the services.ts rule; `.ci/run` installs it).
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onFreePort } from '../../bench/load.ts'

export const NGINX_BIN = process.env.VELA_TEST_NGINX ?? '/usr/sbin/nginx'
export const NGINX_CONF = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url))

const inCI = process.env.CI === 'true' || process.env.CI === '1'

/** True when nginx can run; otherwise a failure under CI, a message and false elsewhere. */
export function nginxAvailable(): boolean {
  if (existsSync(NGINX_BIN) && spawnSync(NGINX_BIN, ['-v']).status === 0) return true
  const message = `nginx is not installed at ${NGINX_BIN} (apt-get install -y nginx)`
  if (inCI) throw new Error(`${message}; CI needs it, so this is a failure, not a skip`)
  console.warn(`[vela tests] ${message}: skipping the tests that need it`)
  return false
}

export interface RenderOptions {
  /** The instances' ports, one upstream `server` line each. */
  upstreams: readonly number[]
  /** Where nginx listens on 127.0.0.1. */
  port: number
  /** The folder for the pid file, logs and temp files. */
  dir: string
  /** Keep the access log (in `dir`/access.log); off for benchmarks. Default true. */
  accessLog?: boolean
}

function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`deploy/nginx.conf no longer has ${pattern}: update test/support/nginx.ts`)
  return text.replace(pattern, replacement)
}

/** deploy/nginx.conf with this run's ports and paths; everything else as users get it. */
export function renderNginxConf(source: string, o: RenderOptions): string {
  let conf = replaceOnce(source, /^pid .*;$/m, `pid ${join(o.dir, 'nginx.pid')};`)
  conf = replaceOnce(conf, /^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${o.port};`)
  conf = replaceOnce(
    conf,
    /^(\s*)access_log \/dev\/stdout;$/m,
    o.accessLog === false ? '$1access_log off;' : `$1access_log ${join(o.dir, 'access.log')};`,
  )
  // The upstream's server lines: one per instance, with the parameters the file gives the first.
  const servers = /^(\s*)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n(?:\s*server 127\.0\.0\.1:\d+[^;\n]*;\n)*/m
  const match = servers.exec(conf)
  if (!match)
    throw new Error('deploy/nginx.conf has no upstream server lines on 127.0.0.1: update test/support/nginx.ts')
  const [, indent, params = ''] = match
  conf = conf.replace(servers, o.upstreams.map((p) => `${indent}server 127.0.0.1:${p}${params};\n`).join(''))
  // Temp files in the run's folder, not the system's /var/lib/nginx.
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((k) => `    ${k}_temp_path ${join(o.dir, k)};`)
    .join('\n')
  return replaceOnce(conf, /^http \{$/m, `http {\n${temp}`)
}

export interface Nginx {
  readonly port: number
  readonly url: string
  readonly pid: number
  /** What nginx wrote to stderr (its error log) so far. */
  errors(): string
  /** The access log so far ('' when it is off). */
  accessLog(): string
  stop(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => (s.destroy(), resolve(true)))
    s.once('error', () => resolve(false))
  })
}

/**
 * Starts nginx on deploy/nginx.conf for `upstreams`; resolves once it accepts connections (within
 * 10 s). The port is one found free just before: should another process take it first, nginx
 * cannot bind it and the start is tried again on another.
 */
export async function startNginx(upstreams: readonly number[], opts: { accessLog?: boolean } = {}): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'vela-nginx-'))
  // Worker processes run as an unprivileged user when nginx starts as root: they must reach the folder.
  chmodSync(dir, 0o755)
  try {
    return await onFreePort(
      (port) => launch(dir, port, upstreams, opts),
      (e) => /Address already in use/.test((e as Error).message),
    )
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
}

/** nginx on `port`, once it accepts connections; rejects with its error log if it exits or takes 10 s. */
async function launch(
  dir: string,
  port: number,
  upstreams: readonly number[],
  opts: { accessLog?: boolean },
): Promise<Nginx> {
  writeFileSync(
    join(dir, 'nginx.conf'),
    renderNginxConf(readFileSync(NGINX_CONF, 'utf8'), { upstreams, port, dir, accessLog: opts.accessLog }),
  )
  const child = spawn(NGINX_BIN, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let errors = ''
  child.stderr.on('data', (d) => (errors += d))
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  for (const until = Date.now() + 10_000; !(await accepts(port)); await sleep(20)) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL')
      await exited
      throw new Error(`nginx did not start:\n${errors}`)
    }
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    errors: () => errors,
    accessLog: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : ''),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGTERM: nginx's fast shutdown (workers stop at once); SIGKILL if it has not gone in 5 s.
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(timer)
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
