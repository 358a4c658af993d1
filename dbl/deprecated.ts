/**
 * Old exports of `vela/dbl` that still work for one release, each printing one deprecation
 * warning at its first use. `ok` / `err` clashed with the plugin `ok` of `vela`; repository
 * results are compared by their `ok` field, and nothing in an app needs to build one.
 */
import { warnDeprecated } from '../server/deprecation.ts'
import { err as makeErr, ok as makeOk, type Err, type Ok } from './result.ts'

/**
 * A success holding `value`, as repository writes give it. Deprecated: it warns once.
 *
 * @deprecated Compare `result.ok` instead; an app has no need to build a result. (`ok` from
 * `vela` is the plugin helper, a different function.)
 *
 * @example
 * const res = await repo.insert(cs)
 * if (res.ok) console.log(res.value.id)
 */
export function ok<T>(value: T): Ok<T> {
  warnDeprecated('VELA_DEP_DBL_OK', "ok from 'vela/dbl' is deprecated: compare result.ok instead of building results")
  return makeOk(value)
}

/**
 * A failure holding `error`, as repository writes give it. Deprecated: it warns once.
 *
 * @deprecated Compare `result.ok` instead; an app has no need to build a result.
 *
 * @example
 * const res = await repo.insert(cs)
 * if (!res.ok) return json(errorsToJson(res.error), { status: 422 })
 */
export function err<E>(error: E): Err<E> {
  warnDeprecated('VELA_DEP_DBL_ERR', "err from 'vela/dbl' is deprecated: compare result.ok instead of building results")
  return makeErr(error)
}
