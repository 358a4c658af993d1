/**
 * Records what a suite's HTTP calls got back: `recordFetch` replaces the global `fetch` (which the
 * playground's cases and their clients call) with one that keeps, for every exchange, the
 * request's method, path and Accept header and the response's status, content type and body text,
 * and returns the response untouched. `settled` waits for the bodies being read; `restore` puts
 * the real `fetch` back.
 */

export interface Exchange {
  readonly method: string
  readonly path: string
  readonly accept: string | null
  readonly status: number
  readonly contentType: string | null
  readonly body: string
}

export function recordFetch(): { readonly exchanges: Exchange[]; settled(): Promise<void>; restore(): void } {
  const real = globalThis.fetch
  const exchanges: Exchange[] = []
  const pending: Promise<void>[] = []
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const res = await real(input, init)
    const copy = res.clone()
    pending.push(
      copy.text().then(
        (body) => {
          exchanges.push({
            method: request.method,
            path: new URL(request.url).pathname,
            accept: request.headers.get('accept'),
            status: res.status,
            contentType: res.headers.get('content-type'),
            body,
          })
        },
        () => undefined,
      ),
    )
    return res
  }
  return {
    exchanges,
    settled: async () => {
      await Promise.all(pending)
    },
    restore: () => {
      globalThis.fetch = real
    },
  }
}
