/**
 * Query strings as the typed client writes them: `undefined` values are left out, arrays become
 * repeated keys (`?tag=a&tag=b`, what the server's query coercion reads back as an array), every
 * other value its `String()`.
 */
import type { QueryValue } from './route-types.ts'

/** `{ tag: ['a', 'b'], page: 2 }` → `?tag=a&tag=b&page=2`; `''` when nothing is left. */
export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** `/api/products/:id` with `{ id: 1 }` → `/api/products/1` (each value percent-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, unknown>> | undefined): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined || value === null) throw new TypeError(`${path}: missing path parameter "${name}"`)
    return encodeURIComponent(String(value))
  })
}
