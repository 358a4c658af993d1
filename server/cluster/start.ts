/**
 * Running the app's start hook in the built server (single process, primary or worker): a failure
 * (a missing session secret, a database still unreachable after the repo's retries) prints one
 * line and exits 1; a coded Vela error (VELA_ERR_*) is its message, anything else keeps its stack.
 */
import type { VelaApp } from '../contracts/app.ts'
import type { ProcessEffects } from './effects.ts'
import { printable, processEffects } from './effects.ts'

/** `playground (prod)`: how the start and listen lines name the app. */
export function appName(app: VelaApp): string {
  return `${app.config.bootstrapApplication} (${app.config.environment})`
}

/** Whether the app started; if not, the failure is printed and `exit(1)` called. `who`: added after the app's name (`worker 2`). */
export async function startOrExit(
  app: VelaApp,
  who?: string,
  effects: ProcessEffects = processEffects,
): Promise<boolean> {
  try {
    await app.start()
    return true
  } catch (err) {
    const e = err as { message?: string; code?: unknown } | undefined
    effects.print(`vela: ${appName(app)}${who ? ` ${who}` : ''} could not start: ${e?.message ?? err}`, true)
    if (!String(e?.code ?? '').startsWith('VELA_ERR_')) effects.print(printable(err), true)
    effects.exit(1)
    return false
  }
}
