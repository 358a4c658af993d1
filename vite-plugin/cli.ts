/**
 * `vela <command>`. For now: `serve [--root dir]`. The remaining commands of DESIGN.md §5 come
 * with the Vite plugin.
 */
import { serve } from './serve.ts'

const usage = `usage: vela <command> [options]

commands:
  serve [--root <dir>]   start the app in <dir> (default: the current directory) on PORT or 8080`

const [command, ...args] = process.argv.slice(2)
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? undefined : args[i + 1]
}

try {
  switch (command) {
    case 'serve':
      await serve(flag('root') ?? process.cwd())
      break
    case undefined:
    case 'help':
    case '--help':
      console.log(usage)
      break
    default:
      console.error(`vela: unknown command ${JSON.stringify(command)}\n\n${usage}`)
      process.exitCode = 2
  }
} catch (err) {
  console.error(`vela ${command}: ${err instanceof Error ? err.message : String(err)}`)
  process.exitCode = 1
}
