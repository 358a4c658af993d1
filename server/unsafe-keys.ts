/**
 * Keys that lead to an object's prototype: `__proto__`, `constructor`, `prototype`. Decoded input
 * (JSON and form bodies, the query string) is stripped of them at every depth, so that
 * `Object.assign({}, req.params)` or a deep merge of `req.json` cannot give an object a prototype
 * chosen by the client (`{"__proto__": {"isAdmin": true}}`). **Choice:** dropped rather than a 400
 * (Fastify's `onProtoPoisoning: 'error'`): one rule for bodies and queries, and a crawler's
 * `?constructor=1` is no error; an app that wants such a key reads the raw text (`req.body`,
 * `req.url.search`). Imports nothing.
 */

const UNSAFE_KEYS = ['__proto__', 'constructor', 'prototype'] as const

export const isUnsafeKey = (key: string): boolean => key === '__proto__' || key === 'constructor' || key === 'prototype'

/**
 * Whether JSON text can decode to an unsafe key: it has `proto` (in two of them) or `constructor`,
 * or a `\u005x`–`\u007x` escape that could spell one. Three substring scans for a plain body (a
 * scan costs little more than its call), so the walk below runs only for such bodies.
 */
export function jsonMayHaveUnsafeKeys(text: string): boolean {
  return text.includes('proto') || text.includes('constructor') || (text.includes('\\u00') && /\\u00[5-7]/i.test(text))
}

/** Deletes unsafe keys of one flat record (a parsed query). */
export function dropUnsafeFlatKeys(record: Record<string, unknown>): void {
  for (const key of UNSAFE_KEYS) if (Object.hasOwn(record, key)) delete record[key]
}

/** Deletes unsafe keys in `value`'s objects at every depth. Iterative: a deeply nested body cannot overflow the stack. */
export function dropUnsafeKeys(value: unknown): void {
  const pending: unknown[] = [value]
  const seen = new Set<object>()
  while (pending.length > 0) {
    const v = pending.pop()
    if (typeof v !== 'object' || v === null || seen.has(v)) continue
    seen.add(v)
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) pending.push(item)
      continue
    }
    const record = v as Record<string, unknown>
    for (const key of Object.keys(record)) {
      if (isUnsafeKey(key)) delete record[key]
      else if (typeof record[key] === 'object' && record[key] !== null) pending.push(record[key])
    }
  }
}
