/**
 * Who is acting, for the audit rows (audit/record.ts): per async call chain, in AsyncLocalStorage
 * as transactions are (repo/context.ts). `withActor(actor, fn)` names the actor for everything
 * `fn` does; for a request, `actorScope` opens a cell around the whole request (a stream handler's
 * `run`, see `auditActorHandler`) that a security callback, a plugin or a handler fills with
 * `setActor` once it knows who the user is.
 *
 * Kept on `globalThis` under a registered symbol: in development the app's modules run in Vite's
 * module runner, so two copies of this module may meet; the symbol makes them share one storage.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

interface ActorCell {
  actor: unknown
}

const kActors = Symbol.for('vela.dbl.actors')
const globals = globalThis as { [kActors]?: AsyncLocalStorage<ActorCell> }
const actors: AsyncLocalStorage<ActorCell> = (globals[kActors] ??= new AsyncLocalStorage<ActorCell>())

/**
 * Runs `fn` with `actor` as the actor of the audit rows its writes record (any JSON value: a user
 * id, `{ id, email }`, `'system'`); gives what `fn` gives. `repo.withActor` is the same function.
 *
 * @example
 * await withActor({ id: user.id }, () => repo.update(change(Post, post, { title: 'New' })))
 */
export function withActor<T>(actor: unknown, fn: () => T): T {
  return actors.run({ actor }, fn)
}

/**
 * Runs `next` in a fresh actor scope (no actor yet) that `setActor` fills: the `run` of a stream
 * handler's watch, so a whole request shares one scope. `auditActorHandler` does just that.
 *
 * @example
 * // A stream handler of your own that also opens the scope:
 * defineStreamHandler({ name: 'request-log', observe: () => () => ({ run: actorScope, end: (o) => log(o.status) }) })
 */
export function actorScope(next: () => void): void {
  actors.run({ actor: undefined }, next)
}

/**
 * Names the actor of the current scope (the request's, opened by `auditActorHandler`, or the
 * innermost `withActor`): the writes made after it in that scope record it. Throws when no scope
 * is open, so a missing stream handler does not go unnoticed as audit rows without an actor.
 *
 * @example
 * security: (req) => {
 *   const user = usersBySession.get(req.cookies.sid ?? '')
 *   if (!user) return false
 *   setActor(user.id)
 *   return { user }
 * }
 */
export function setActor(actor: unknown): void {
  const cell = actors.getStore()
  if (!cell)
    throw new Error(
      'vela/dbl setActor: no actor scope is open; list defineStreamHandler(auditActorHandler) in server.streamHandlers, or wrap the work in withActor(actor, fn)',
    )
  cell.actor = actor
}

/**
 * The actor of the current scope, or `null` when none is named (audit rows then record `null`).
 *
 * @example
 * const who = currentActor() // { id: 7 } inside withActor({ id: 7 }, …)
 */
export function currentActor(): unknown {
  return actors.getStore()?.actor ?? null
}

/**
 * A stream handler definition opening an actor scope around each request, for `setActor`: pass
 * it to `defineStreamHandler` (from `vela`) and list it before `'default'`.
 *
 * @example
 * import { defineApp, defineStreamHandler } from 'vela'
 * import { auditActorHandler } from 'vela/dbl'
 *
 * export default defineApp({
 *   bootstrapApplication: 'shop',
 *   server: { streamHandlers: [defineStreamHandler(auditActorHandler), 'default'] },
 * })
 */
export const auditActorHandler = {
  name: 'vela-audit-actor',
  observe: () => () => ({ run: actorScope, end: () => {} }),
} as const
