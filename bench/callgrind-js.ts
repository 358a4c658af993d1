/**
 * Where a counted window's instructions went, by function, JavaScript included: reads a callgrind
 * dump kept by `BENCH_PROFILE=<folder>` (bench/count-sockets.ts: `--dump-instr=yes`, and V8's
 * `perf.map` of its compiled code) and prints the self cost of each function per request,
 * JavaScript functions named from the map (callgrind knows only their addresses), then the same
 * summed by where the code comes from (a file, node's internals, V8's builtins, its compilers, the
 * garbage collector).
 *
 *   node bench/callgrind-js.ts <folder>/<server>/out.<n> <requests counted> [top (40)]
 *
 * Self cost only: a function optimized by TurboFan includes the functions it inlined.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

interface Code {
  readonly start: bigint
  readonly end: bigint
  readonly name: string
}

/** V8's perf map: `<start hex> <size hex> <name>` per compiled function, later entries winning. */
function readMap(file: string): Code[] {
  const codes: Code[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line)
    if (!m) continue
    const start = BigInt(`0x${m[1]}`)
    codes.push({ start, end: start + BigInt(`0x${m[2]}`), name: m[3]! })
  }
  return codes.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
}

function lookup(codes: Code[], addr: bigint): string | undefined {
  let lo = 0
  let hi = codes.length - 1
  let found: Code | undefined
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (codes[mid]!.start <= addr) {
      found = codes[mid]
      lo = mid + 1
    } else hi = mid - 1
  }
  return found && addr < found.end ? found.name : undefined
}

/**
 * Self cost per function name, JIT code (named by address in the dump) named from the map; and
 * per JavaScript function, the inclusive cost of the native code it called (builtins, the
 * runtime, node's C++: which may call JavaScript back, counted there too).
 */
function selfCosts(
  dump: string,
  codes: Code[],
): { self: Map<string, number>; native: Map<string, number>; edges: Map<string, number> } {
  const names = new Map<string, string>()
  const costs = new Map<string, number>()
  const native = new Map<string, number>()
  const edges = new Map<string, number>()
  let fn = ''
  let callee = ''
  let positions = ['line']
  const last: bigint[] = []
  let skipNext = false
  const named = (spec: string): string => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec)
    if (!m) return spec
    if (m[2] !== undefined) names.set(m[1]!, m[2])
    return names.get(m[1]!) ?? spec
  }
  for (const line of readFileSync(dump, 'utf8').split('\n')) {
    if (line.startsWith('positions:')) positions = line.slice(10).trim().split(/\s+/)
    else if (line.startsWith('fn=')) fn = named(line.slice(3))
    else if (line.startsWith('calls=')) skipNext = true
    else if (line.startsWith('cfn=')) callee = named(line.slice(4))
    else if (/^(cfi|cfl|cob)=/.test(line)) named(line.slice(line.indexOf('=') + 1))
    else if (/^[0-9+\-*]/.test(line)) {
      const parts = line.split(/\s+/)
      for (let i = 0; i < positions.length; i++) {
        const p = parts[i]!
        if (p === '*') continue
        if (p.startsWith('+')) last[i] = (last[i] ?? 0n) + BigInt(p.slice(1))
        else if (p.startsWith('-')) last[i] = (last[i] ?? 0n) - BigInt(p.slice(1))
        else last[i] = BigInt(p)
      }
      const ir = Number(parts[positions.length] ?? 0)
      const jit = /^0x[0-9a-f]+$/i.test(fn) && positions[0] === 'instr'
      const name = jit ? (lookup(codes, last[0]!) ?? '(unknown JIT code)') : fn
      if (skipNext) {
        skipNext = false
        if (jit && !/^0x[0-9a-f]+$/i.test(callee)) {
          native.set(name, (native.get(name) ?? 0) + ir)
          const edge = `${name} -> ${callee}`
          edges.set(edge, (edges.get(edge) ?? 0) + ir)
        }
        continue
      }
      costs.set(name, (costs.get(name) ?? 0) + ir)
    }
  }
  return { self: costs, native, edges }
}

/** Where a function's code comes from, for the summary. */
function origin(name: string): string {
  const file = /\s(\S+?):\d+(?::\d+)?$/.exec(name)?.[1] ?? /\s(\S+)$/.exec(name)?.[1]
  if (/^(JS|Function|LazyCompile|Script):/.test(name) && file) {
    if (file.startsWith('node:')) return `node ${file}`
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)
    return nm ? `package ${nm[1]}` : file.replace(/^file:\/\//, '')
  }
  if (/^Builtin:|^Builtins_/.test(name)) return 'V8 builtins'
  if (/^(Bytecode|Handler|Stub|RegExp)/.test(name)) return `V8 ${name.split(/[:\s]/)[0]}`
  if (/compiler::|maglev::|Maglev|Turbofan/.test(name)) return 'V8 compilers'
  if (/Heap|GC|Scavenge|Mark|Sweep|Evacuat|heap::/.test(name)) return 'V8 garbage collector'
  if (/^v8::|^Runtime_/.test(name)) return 'V8 runtime (C++)'
  if (/^node::|^uv_|^llhttp/.test(name)) return 'node (C++)'
  return 'other native'
}

const [dump, counted, top = '40'] = process.argv.slice(2)
if (!dump || !counted) {
  console.error('usage: node bench/callgrind-js.ts <dump> <requests counted> [top]')
  process.exit(1)
}
const n = Number(counted)
const { self: costs, native, edges } = selfCosts(dump, readMap(join(dirname(dump), 'perf.map')))
const total = [...costs.values()].reduce((a, b) => a + b, 0)
console.log(`${Math.round(total / n)} instructions per request (${dump})\n`)
const byOrigin = new Map<string, number>()
for (const [name, ir] of costs) byOrigin.set(origin(name), (byOrigin.get(origin(name)) ?? 0) + ir)
for (const [name, ir] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${String(Math.round(ir / n)).padStart(9)}  ${name}`)
console.log('')
for (const [name, ir] of [...costs].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${String(Math.round(ir / n)).padStart(9)}  ${name.slice(0, 150)}`)
console.log('\nJavaScript functions, self + the native code they called:\n')
const js = [...costs].filter(([name]) => /^(JS|Function|LazyCompile):/.test(name))
for (const [name, ir] of js
  .map(([k, v]) => [k, v + (native.get(k) ?? 0)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(top)))
  console.log(`${String(Math.round(ir / n)).padStart(9)}  ${name.slice(0, 150)}`)
// CALLEES=<text>: the native calls of the JavaScript functions whose name has that text.
const calleesOf = process.env.CALLEES
if (calleesOf) {
  console.log(`\nNative calls of ${calleesOf}:\n`)
  for (const [edge, ir] of [...edges]
    .filter(([e]) => e.split(' -> ')[0]!.includes(calleesOf))
    .sort((a, b) => b[1] - a[1]))
    console.log(`${String(Math.round(ir / n)).padStart(9)}  ${edge.slice(0, 200)}`)
}
