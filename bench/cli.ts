/**
 * `npm run bench -- cli`: what the `vela` commands cost on the playground, cold: CPU (user + system)
 * and peak memory (max RSS) of the whole process, each command run with no inspection cache
 * (`.vela/` removed) and `vela migrate` into a new embedded database (a fresh PGlite folder).
 * Each command runs once through the CLI's own choice of loader and once with
 * `VELA_CLI_LOADER=vite` (the app loaded through Vite, as every command did before the light
 * loader), against, in the same run, the cost of starting Node (`node -e ''`) and of
 * `vite --version`. The figures come from the process itself (`process.resourceUsage()` at exit,
 * through an `--import` hook, which `vela migrate`'s re-exec keeps). A first unmeasured run of each
 * fills Node's compile cache and the PGlite templates, as any earlier use of the machine would;
 * then BENCH_ROUNDS (default 3) interleaved rounds, medians printed.
 * Targets: routes, audit, types ≤ 1 s of CPU and ≤ 150 MiB; migrate into a new database ≤ 4 s.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(REPO, 'vite-plugin/bin.mjs')
const VITE = join(REPO, 'node_modules/vite/bin/vite.js')
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 3

spawnSync(process.execPath, [join(REPO, 'scripts/build-package.mjs')], { stdio: 'inherit' })

// Inside the repo, so the app's `vela` imports resolve to this package.
mkdirSync(join(REPO, '.scratch'), { recursive: true })
const app = mkdtempSync(join(REPO, '.scratch', 'bench-cli-'))
const skip = ['.data', '.vela', 'dist'].map((d) => join(REPO, 'playground', d))
cpSync(join(REPO, 'playground'), app, { recursive: true, filter: (src) => !skip.includes(src) })
const scratch = mkdtempSync(join(tmpdir(), 'vela-bench-cli-'))
const usageFile = join(scratch, 'usage.json')
const HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.VELA_BENCH_USAGE, JSON.stringify(process.resourceUsage())))",
)}`

interface Case {
  readonly name: string
  readonly args: readonly string[]
  /** Runs it through Vite too (VELA_CLI_LOADER=vite). */
  readonly vela?: boolean
  readonly target?: { cpu: number; mib?: number }
}
const cases: Case[] = [
  { name: "node -e ''", args: ['-e', ''] },
  { name: 'vite --version', args: [VITE, '--version'] },
  { name: 'vela routes', args: [BIN, 'routes'], vela: true, target: { cpu: 1, mib: 150 } },
  { name: 'vela audit', args: [BIN, 'audit'], vela: true, target: { cpu: 1, mib: 150 } },
  { name: 'vela types', args: [BIN, 'types'], vela: true, target: { cpu: 1, mib: 150 } },
  { name: 'vela config', args: [BIN, 'config'], vela: true },
  { name: 'vela migrations generate', args: [BIN, 'migrations', 'generate'], vela: true },
  { name: 'vela migrate (new PGlite)', args: [BIN, 'migrate'], vela: true, target: { cpu: 4 } },
]

interface Usage {
  readonly cpu: number
  readonly mib: number
}

let data = 0
/** One cold run: no inspection cache, no route types, a new database folder. */
function measure(c: Case, viaVite: boolean): Usage {
  rmSync(join(app, '.vela'), { recursive: true, force: true })
  const env = {
    ...process.env,
    VELA_BENCH_USAGE: usageFile,
    VELA_CLI_LOADER: viaVite ? 'vite' : '',
    VELA_PLAYGROUND_DATA: join(scratch, `data-${++data}`),
    DATABASE_URL: '',
    VELA_ENV: '',
    PORT: '',
  }
  const r = spawnSync(process.execPath, ['--import', HOOK, ...c.args], { cwd: app, env, encoding: 'utf8' })
  // `vela audit` exits 1 on the playground: it has open write routes (its API), by design.
  if (r.status !== 0 && !(c.name === 'vela audit' && r.status === 1))
    throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`)
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as {
    userCPUTime: number
    systemCPUTime: number
    maxRSS: number
  }
  return { cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6, mib: usage.maxRSS / 1024 }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const runs = new Map<string, Usage[]>()
const variants = cases.flatMap((c) => [{ c, viaVite: false }, ...(c.vela ? [{ c, viaVite: true }] : [])])
const key = (c: Case, viaVite: boolean) => `${c.name}${viaVite ? ' (Vite)' : ''}`
try {
  for (const v of variants) measure(v.c, v.viaVite)
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of variants) {
      const u = measure(v.c, v.viaVite)
      runs.set(key(v.c, v.viaVite), [...(runs.get(key(v.c, v.viaVite)) ?? []), u])
      console.log(`round ${round} ${key(v.c, v.viaVite)}: ${u.cpu.toFixed(2)} s CPU, ${u.mib.toFixed(0)} MiB`)
    }
  }
} finally {
  rmSync(app, { recursive: true, force: true })
  rmSync(scratch, { recursive: true, force: true })
}

const med = (name: string) => {
  const us = runs.get(name)!
  return { cpu: median(us.map((u) => u.cpu)), mib: median(us.map((u) => u.mib)) }
}
const node = med("node -e ''")
console.log(`\nCLI on the playground, cold, Node ${process.version}: medians of ${ROUNDS} rounds`)
console.log(
  "\n| command | CPU s | max RSS MiB | CPU / node -e '' | through Vite: CPU s | MiB | CPU vs Vite | target |\n|---|---|---|---|---|---|---|---|",
)
for (const c of cases) {
  const m = med(key(c, false))
  const v = c.vela ? med(key(c, true)) : undefined
  const target = c.target
    ? `≤ ${c.target.cpu} s${c.target.mib ? `, ≤ ${c.target.mib} MiB` : ''}: ${m.cpu <= c.target.cpu && (!c.target.mib || m.mib <= c.target.mib) ? 'met' : 'missed'}`
    : ''
  console.log(
    `| ${c.name} | ${m.cpu.toFixed(2)} | ${m.mib.toFixed(0)} | ${(m.cpu / node.cpu).toFixed(1)} | ${v ? v.cpu.toFixed(2) : ''} | ${v ? v.mib.toFixed(0) : ''} | ${v ? `${(m.cpu / v.cpu).toFixed(2)}` : ''} | ${target} |`,
  )
}
