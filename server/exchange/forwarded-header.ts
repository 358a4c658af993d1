/**
 * RFC 7239 `Forwarded` (`for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`), read only from
 * trusted proxies (forwarded.ts). Each proxy appends one element; an element is `;`-separated
 * `name=value` pairs whose values may be quoted. Only `for` and `proto` are read.
 */

/** One hop of the header: the node it names (`for`, port and brackets removed) and its `proto`. */
export interface ForwardedElement {
  /** An IP address, or what the proxy wrote instead (`unknown`, `_hidden`, '' when absent). */
  readonly for: string
  readonly proto: string | undefined
}

/** The elements of a `Forwarded` value, left (the first proxy's) to right (the nearest's). */
export function parseForwarded(value: string): ForwardedElement[] {
  const elements: ForwardedElement[] = []
  let node = ''
  let proto: string | undefined
  let i = 0
  const n = value.length
  while (i < n) {
    // One `name=value` pair, then `;` (same element), `,` (next element) or the end.
    const eq = value.indexOf('=', i)
    const stop = nextDelimiter(value, i)
    if (eq === -1 || eq > stop) {
      i = stop
    } else {
      const name = value.slice(i, eq).trim().toLowerCase()
      let v: string
      let j = eq + 1
      while (value.charCodeAt(j) === 32) j++
      if (value.charCodeAt(j) === 34 /* " */) {
        const close = value.indexOf('"', j + 1)
        const end = close === -1 ? n : close
        v = value.slice(j + 1, end)
        i = nextDelimiter(value, Math.min(n, end + 1))
      } else {
        i = nextDelimiter(value, j)
        v = value.slice(j, i).trim()
      }
      if (name === 'for') node = nodeAddress(v)
      else if (name === 'proto') proto = v.toLowerCase()
    }
    if (i >= n || value.charCodeAt(i) === 44 /* , */) {
      elements.push({ for: node, proto })
      node = ''
      proto = undefined
    }
    i++
  }
  return elements
}

/** Index of the next `;` or `,` from `from`, or the length. */
function nextDelimiter(value: string, from: number): number {
  for (let k = from; k < value.length; k++) {
    const c = value.charCodeAt(k)
    if (c === 59 || c === 44) return k
  }
  return value.length
}

/** `[2001:db8::1]:4711` → `2001:db8::1`; `192.0.2.43:47011` → `192.0.2.43`; anything else as is. */
function nodeAddress(v: string): string {
  if (v.startsWith('[')) {
    const close = v.indexOf(']')
    return close === -1 ? v : v.slice(1, close)
  }
  const colon = v.indexOf(':')
  return colon !== -1 && colon === v.lastIndexOf(':') ? v.slice(0, colon) : v
}
