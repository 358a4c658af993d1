import type { TestApp } from 'vela/testing'

/**
 * A browser as far as these tests need one: it keeps the cookies the app sets, sends them back,
 * and fills in the CSRF token of the last page it loaded, as a form on that page would.
 */
export function browser(t: TestApp) {
  const cookies = new Map<string, string>()
  let token = ''
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')

  async function request(method: string, url: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { cookie: cookieHeader() }
    let body: string | undefined
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(form).toString()
    }
    const res = await t.inject({ method, url, headers, body })
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const [name = '', value = ''] = pair.split('=')
      const removed = attributes.some((a) => /^\s*max-age=0$/i.test(a)) || value === ''
      if (removed) cookies.delete(name)
      else cookies.set(name, value)
    }
    return res
  }

  return {
    cookies,
    /** GET a page; remembers its CSRF token. */
    async get(url: string) {
      const res = await request('GET', url)
      const html = await res.clone().text()
      token = /name="_csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? token
      return res
    },
    /** POST a form with the last page's CSRF token (unless `_csrf_token` is given). */
    post(url: string, form: Record<string, string> = {}) {
      return request('POST', url, { _csrf_token: token, ...form })
    },
  }
}
