/**
 * A throwaway PostgreSQL cluster of the test file's own, for the fault cases that kill, freeze and
 * restart the database: never the shared server on :5432, which other suites use at the same time.
 *
 * `initdb` into a temporary folder, then `pg_ctl start` on a free port, listening on 127.0.0.1
 * only (its socket in the same folder), trust authentication, user `postgres`. Should another
 * process take that port before PostgreSQL binds it, the start is tried again on another
 * (`restart` keeps the port: clients hold the URL). PostgreSQL refuses to run as root, so under
 * root (how this machine runs tests) every command runs as the `postgres` system user
 * (`runuser -u postgres --`; another with VELA_TEST_PG_USER); otherwise as the current user.
 * `fsync` is off: the faults here kill processes, not the machine, and what a process wrote is in
 * the kernel either way.
 *
 *   const cluster = usePgCluster()   // beforeAll starts it, afterAll removes it (one per file)
 *   cluster().freeze(); …; cluster().thaw()
 *
 * Where no `initdb` is found the cases skip with a message; under CI that is a failure (as for
 * the services in services.ts).
 */
import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll } from 'vitest'
import { onFreePort } from '../../bench/load.ts'

const run = promisify(execFile)
const inCI = process.env.CI === 'true' || process.env.CI === '1'
const OS_USER = process.env.VELA_TEST_PG_USER ?? 'postgres'

export interface PgCluster {
  readonly port: number
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
  /** The postmaster and every process it started (backends, checkpointer, …). */
  pids(): number[]
  /** SIGKILL every process of the cluster (no shutdown, no checkpoint), and wait until they are gone. */
  kill(): Promise<void>
  /** SIGSTOP every process: connections stay open, nothing answers. */
  freeze(): void
  /** SIGCONT what `freeze` stopped. */
  thaw(): void
  /** True while every process of the cluster is stopped. */
  frozen(): boolean
  /** Starts the cluster again after `kill` or `stop` (crash recovery runs after a kill). */
  restart(): Promise<void>
  /** A fast shutdown (`pg_ctl stop -m fast`). */
  stop(): Promise<void>
  /** Kills whatever runs and removes the folder. */
  destroy(): Promise<void>
}

/** The folder holding initdb and pg_ctl: PATH, /usr/local/bin, then the newest /usr/lib/postgresql/<v>/bin. */
export function postgresBinaries(): string | undefined {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : []
  const dirs = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/local/bin',
    ...versions.map((v) => `/usr/lib/postgresql/${v}/bin`),
  ]
  return dirs.find((d) => d && existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')))
}

/** True when a cluster can be made; otherwise throws under CI, or warns and returns false. */
export function pgClusterAvailable(): boolean {
  if (postgresBinaries()) return true
  const message = 'no initdb/pg_ctl found (PATH, /usr/local/bin, /usr/lib/postgresql/*/bin)'
  if (inCI) throw new Error(`${message}; CI needs them for the fault suite, so this is a failure, not a skip`)
  console.warn(`[vela tests] ${message}: skipping the database fault cases`)
  return false
}

const asRoot = process.getuid?.() === 0

async function as(cmd: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', OS_USER, '--', cmd, ...args]] : [cmd, args]
  const { stdout } = await run(file, argv, { timeout: 60_000 })
  return stdout
}

/** Parent pid and state of a process from /proc (Linux); undefined when it is gone. */
function procStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(ppid), state: state! }
  } catch {
    return undefined
  }
}

const alive = (pid: number) => {
  const s = procStat(pid)
  return s !== undefined && s.state !== 'Z'
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBinaries()
  if (!bin) throw new Error('no initdb found')
  const dir = mkdtempSync(join(tmpdir(), 'vela-pgcluster-'))
  if (asRoot) {
    const { uid, gid } = await lookupUser(OS_USER)
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  await as(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-instructions',
  ])
  let port = 0
  const settings = () => [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-k ${dir}`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=60',
    '-c shared_buffers=16MB',
  ]
  const start = async () => {
    try {
      await as(join(bin, 'pg_ctl'), [
        '-D',
        data,
        '-l',
        join(dir, 'log'),
        '-w',
        '-t',
        '60',
        '-o',
        settings().join(' '),
        'start',
      ])
    } catch (e) {
      const log = existsSync(join(dir, 'log'))
        ? readFileSync(join(dir, 'log'), 'utf8').split('\n').slice(-15).join('\n')
        : '(no log)'
      throw new Error(`pg_ctl start failed: ${(e as Error).message}\n${log}`)
    }
  }

  const postmaster = (): number | undefined => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
    } catch {
      return undefined
    }
  }
  const pids = (): number[] => {
    const pm = postmaster()
    if (!pm || !alive(pm)) return []
    const children = readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .filter((pid) => procStat(pid)?.ppid === pm && alive(pid))
    return [pm, ...children]
  }
  const signal = (list: number[], sig: NodeJS.Signals) => {
    for (const pid of list) {
      try {
        process.kill(pid, sig)
      } catch {}
    }
  }
  const killAll = async () => {
    const list = pids()
    signal(list, 'SIGKILL')
    // Dead, then reaped by whoever adopted them: PostgreSQL takes a zombie's pid in a lock file for a
    // running postmaster. Bounded, in case nothing reaps (restart then removes the stale locks).
    const until = Date.now() + 3000
    while (list.some((pid) => procStat(pid)) && (list.some(alive) || Date.now() < until))
      await new Promise((r) => setTimeout(r, 10))
  }
  // Should the test process die first, the cluster dies with it.
  const onExit = () => {
    signal(pids(), 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', onExit)

  // The port is found free just before the start, after initdb: a short window for another
  // process (a client's outgoing connection) to take it, and a new port if one did.
  await onFreePort(
    (free) => ((port = free), start()),
    (e) => /could not bind|Address already in use/.test((e as Error).message),
  )
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pids,
    kill: killAll,
    freeze: () => signal(pids(), 'SIGSTOP'),
    thaw: () => signal(pids(), 'SIGCONT'),
    frozen: () => pids().length > 0 && pids().every((pid) => procStat(pid)?.state === 'T'),
    async restart() {
      // A killed postmaster leaves its lock files; PostgreSQL removes them itself unless a process
      // (even a zombie) still has its pid.
      const pm = postmaster()
      if (pm && !alive(pm)) {
        for (const lock of [join(data, 'postmaster.pid'), join(dir, `.s.PGSQL.${port}.lock`)])
          if (existsSync(lock)) unlinkSync(lock)
      }
      await start()
    },
    async stop() {
      await as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'])
    },
    async destroy() {
      signal(pids(), 'SIGCONT')
      await killAll()
      process.off('exit', onExit)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function lookupUser(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])])
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) }
}

/** One cluster for the test file: started in beforeAll, destroyed in afterAll. The getter throws before beforeAll ran. */
export function usePgCluster(): () => PgCluster {
  let cluster: PgCluster | undefined
  beforeAll(async () => {
    cluster = await startPgCluster()
  })
  afterAll(async () => {
    await cluster?.destroy()
  })
  return () => {
    if (!cluster) throw new Error('the PostgreSQL cluster is not running (usePgCluster in a skipped suite?)')
    return cluster
  }
}
