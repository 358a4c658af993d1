/**
 * Running the app's start hook in the built server (single process, primary or worker): a failure
 * (a missing session secret, a database still unreachable after the repo's retries) prints one
 * line and exits 1; a coded Vela error (VELA_ERR_*) is its message, anything else keeps its stack.
 */
import type { VelaApp } from '../contracts/app.ts'

/** `playground (prod)`: how the start and listen lines name the app. */
export function appName(app: VelaApp): string {
  return `${app.config.bootstrapApplication} (${app.config.environment})`
}

/** `who`: added after the app's name, e.g. `worker 2`. */
export async function startOrExit(app: VelaApp, who?: string): Promise<void> {
  try {
    await app.start()
  } catch (err) {
    const e = err as { message?: string; code?: unknown } | undefined
    console.error(`vela: ${appName(app)}${who ? ` ${who}` : ''} could not start: ${e?.message ?? err}`)
    if (!String(e?.code ?? '').startsWith('VELA_ERR_')) console.error(err)
    process.exit(1)
  }
}
