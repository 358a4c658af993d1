/**
 * The process's place in a cluster of workers (`VELA_WORKERS`): set once by primary.ts or
 * worker.ts before the app starts, read by the start hook's context (`ctx.cluster`) and by
 * vela/telemetry (a worker reports its metrics to the primary, the primary serves their sum).
 * Undefined in a single process.
 *
 * Kept on `globalThis` under a registered symbol, not in a module variable: a bundle can hold this
 * module twice (the built entry imports the runtime by path, the app imports `vela`), and both
 * copies must see one role.
 */
import type { ClusterRole } from '../contracts/config.ts'

export type { ClusterRole } from '../contracts/config.ts'

const KEY = Symbol.for('vela.cluster.role')
type Holder = { [KEY]?: ClusterRole }

export function clusterRole(): ClusterRole | undefined {
  return (globalThis as Holder)[KEY]
}

/** `undefined`: back to a single process (tests). */
export function setClusterRole(role: ClusterRole | undefined): void {
  ;(globalThis as Holder)[KEY] = role
}
