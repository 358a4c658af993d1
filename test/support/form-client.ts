/**
 * What a browser does with the playground's HTML pages, over plain fetch: keeps the cookies the
 * server sets, posts urlencoded forms with the page's CSRF token, and does not follow redirects
 * (the suites assert them).
 */

export interface FormRequest {
  method?: string
  /** Sent urlencoded, as an HTML form posts it. */
  form?: Record<string, string>
  headers?: Record<string, string>
}

const CSRF_FIELD = /name="_csrf_token" value="([^"]+)"/

export class FormClient {
  readonly cookies = new Map<string, string>()

  /** `headers`: sent with every request (a browser's `user-agent`), under each request's own. */
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(path: string, opts: FormRequest = {}): Promise<Response> {
    const headers = new Headers({ accept: 'text/html', ...this.headers, ...opts.headers })
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    let body: string | undefined
    if (opts.form) {
      body = new URLSearchParams(opts.form).toString()
      headers.set('content-type', 'application/x-www-form-urlencoded')
    }
    const res = await fetch(new URL(path, this.base), {
      method: opts.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    })
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq).trim()
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      )
      if (expired || eq === pair!.length - 1) this.cookies.delete(name)
      else this.cookies.set(name, pair!.slice(eq + 1).trim())
    }
    return res
  }

  /** The page's body, after checking it answered 200. */
  async page(path: string): Promise<string> {
    const res = await this.request(path)
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`)
    return res.text()
  }

  /** A CSRF token of this client's session, from a page's form (default the login form). */
  async csrfToken(path = '/login'): Promise<string> {
    const match = CSRF_FIELD.exec(await this.page(path))
    if (!match) throw new Error(`no _csrf_token field on ${path}`)
    return match[1]!
  }

  /** Posts a form with a valid CSRF token of this session (taken from `from`). */
  async submit(path: string, form: Record<string, string> = {}, from = '/login'): Promise<Response> {
    return this.request(path, { form: { ...form, _csrf_token: await this.csrfToken(from) } })
  }

  /** The login form, filled in and submitted. */
  login(username = 'admin', password = 'password'): Promise<Response> {
    return this.submit('/', { username, password })
  }
}

/** JSON request helpers for the API. */
export function api(base: string) {
  return (
    path: string,
    init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ) =>
    fetch(new URL(path, base), {
      method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined || init.raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    })
}
