#!/usr/bin/env node
// `npm test` and `npm run test:quick`: the static checks (type check, import cycles, lint) and
// vitest, side by side rather than one after the other. The checks take about 35 s of one core,
// mostly tsc; vitest's first seconds (the package build, workers starting) leave the other core
// idle, so running them together shortens the suite on a 2-core machine. The checks' output is
// held and printed after vitest's, so it does not interleave with the test report; the command
// fails when any of them fails. `--quick` runs the quick tier (test/support/tiers.ts) without
// coverage; otherwise the whole suite with coverage. Arguments after `--` go to vitest.
import { spawn } from 'node:child_process'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const extra = args.includes('--') ? args.slice(args.indexOf('--') + 1) : []
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** Runs `command`; resolves with its exit code and, when `hold`, what it printed. */
function run(command, argv, { env = process.env, hold = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { env, stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
    let output = ''
    if (hold) {
      child.stdout.on('data', (d) => (output += d))
      child.stderr.on('data', (d) => (output += d))
    }
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }))
  })
}

async function checks() {
  const results = []
  for (const script of ['typecheck', 'cycles', 'lint']) {
    const r = await run(npm, ['run', '--silent', script], { hold: true })
    results.push({ script, ...r })
    if (r.code !== 0) break
  }
  return results
}

const vitestArgs = ['run', ...(quick ? [] : ['--coverage']), ...extra]
const vitestEnv = quick ? { ...process.env, VELA_TEST_TIER: 'quick' } : process.env
const [checked, tests] = await Promise.all([
  checks(),
  run(process.execPath, ['node_modules/vitest/vitest.mjs', ...vitestArgs], { env: vitestEnv }),
])

let failed = tests.code !== 0
for (const { script, code, output } of checked) {
  process.stdout.write(`\n${code === 0 ? 'passed' : 'FAILED'}: npm run ${script}\n`)
  if (code !== 0) {
    process.stdout.write(output)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
