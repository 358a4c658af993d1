/**
 * For one release, reads still answer code written when they gave `{ ok, value }`: the rows array
 * of `repo.all` and the record of `repo.one` / `get` / `getBy` / `reload` carry getters `ok`
 * (true), `value` (the rows or the record itself) and `error` (undefined), so
 * `if (!res.ok) throw res.error; return res.value` keeps working. The first use of any of them
 * warns once. They are not enumerable: JSON, spreads, `Object.keys` and deep equality never see
 * them. `undefined` (nothing found) cannot carry them; code reading `.ok` of it throws.
 */
import { warnDeprecated } from '../../server/deprecation.ts'

function warn(): void {
  warnDeprecated(
    'VELA_DEP_DBL_READ_RESULT',
    'repo.all/one/get/getBy return the rows or the record now (undefined when none): read them directly instead of .ok and .value',
  )
}

/** Assigning one of the names gives the object a plain field of its own, as on any object. */
function own(name: string): (this: object, v: unknown) => void {
  return function (v) {
    Object.defineProperty(this, name, { value: v, writable: true, enumerable: true, configurable: true })
  }
}

/** A deprecated getter that warns and gives `value(record)`; assigning it gives a plain field. */
const oldGetter = (name: string, value: (record: object) => unknown): PropertyDescriptor => ({
  get(this: object) {
    warn()
    return value(this)
  },
  set: own(name),
  configurable: true,
})

// Built once and shared: each read only attaches them (no closures made per row).
const OK = oldGetter('ok', () => true)
const VALUE = oldGetter('value', (record) => record)
const ERROR = oldGetter('error', () => undefined)

/**
 * `read` with the old result getters attached, unless it cannot carry them (not an object, frozen)
 * or has a field of one of those names of its own (a column named `value`), which stays as it is.
 */
export function withOldReadShape<T>(read: T): T {
  if (
    typeof read === 'object' &&
    read !== null &&
    Object.isExtensible(read) &&
    !Object.hasOwn(read, 'ok') &&
    !Object.hasOwn(read, 'value') &&
    !Object.hasOwn(read, 'error')
  ) {
    // Three defineProperty calls rather than one defineProperties over a descriptor map, which
    // reads the map's descriptors anew on every call: under callgrind it cost a record read about
    // 7,700 instructions; in-process these three take about half its time.
    Object.defineProperty(read, 'ok', OK)
    Object.defineProperty(read, 'value', VALUE)
    Object.defineProperty(read, 'error', ERROR)
  }
  return read
}
