// `createApp`'s `observer` and `onResponse` options (what the dev server's dashboard is made of):
// the observer is told each plugin step and the security verdict of the requests it traces, and
// nothing of the others; the extra response hooks run after the app's own and list the headers as
// sent, each set-cookie apart. The same cases in process and over node's listener.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import type { AppConfig } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import type { OutgoingResponse } from '../contracts/response.ts'
import { createApp } from '../app/create-app.ts'
import { inject } from '../testing/index.ts'
import { json } from '../replies.ts'
import type { PipelineObserver, PipelineTrace, PluginStepReport, SecurityReport } from './observer.ts'
import { definePlugin, ok, stop } from './plugin.ts'

const tag = definePlugin({ name: 'tag', preRequest: (req) => ok(req) })
const gate = definePlugin({
  name: 'gate',
  postRequest: (req) => (req.headers.get('x-stop') ? stop(json({ stopped: true }, { status: 409 })) : ok(req)),
})

const config: AppConfig = {
  bootstrapApplication: 'observed',
  onResponse: [(res) => res.setHeader('x-app-hook', 'ran')],
  routes: {
    guarded: {
      prefix: '/guarded',
      security: function checkToken(req) {
        return req.headers.get('x-token') === 't' ? { user: 'ada' } : false
      },
      plugins: [tag(), gate()],
      routes: [
        [
          'GET /',
          (req) => {
            req.setCookie('a', '1')
            req.setCookie('b', '2')
            return json({ ok: true })
          },
        ],
      ],
    },
    open: { prefix: '/open', security: false, routes: [['GET /', () => json({ open: true })]] },
  },
}

/** What the observer and the extra hook were told, for requests carrying `x-trace`. */
const told: { plugins: PluginStepReport[]; security: SecurityReport[]; headers: [string, string][][] } = {
  plugins: [],
  security: [],
  headers: [],
}
const traced = new WeakSet<object>()
const observer: PipelineObserver = {
  traceOf(request: RequestFacts): PipelineTrace | undefined {
    if (request.header('x-trace') === undefined) return undefined
    traced.add(request)
    return {
      started: performance.now(),
      plugin: (step) => told.plugins.push(step),
      security: (verdict) => told.security.push(verdict),
    }
  },
}
function afterTheApp(res: OutgoingResponse) {
  if (res.request.header('x-trace') !== undefined) told.headers.push(res.headerEntries())
}
const reset = () => {
  told.plugins.length = 0
  told.security.length = 0
  told.headers.length = 0
}

describeModes(
  'an observer and extra response hooks',
  config,
  (t) => {
    it('the observer is told each plugin and the security verdict; the hook sees the headers as sent', async () => {
      reset()
      const res = await t.request({ url: '/guarded', headers: { 'x-trace': '1', 'x-token': 't' } })
      expect(res.status).toBe(200)
      expect(told.plugins.map((p) => [p.name, p.phase, p.outcome.kind])).toEqual([
        ['tag', 'pre_request', 'continued'],
        ['gate', 'post_request', 'continued'],
      ])
      expect(told.security).toMatchObject([{ callback: 'checkToken', verdict: 'allowed', authData: true }])
      for (const report of [...told.plugins, ...told.security]) {
        expect(report.startMs).toBeGreaterThanOrEqual(0)
        expect(report.durationMs).toBeGreaterThanOrEqual(0)
      }
      const [headers] = told.headers
      // After the app's own hook: its header is there; each cookie is a pair of its own.
      expect(headers).toContainEqual(['x-app-hook', 'ran'])
      expect(headers).toContainEqual(['content-type', 'application/json; charset=utf-8'])
      expect(headers!.filter(([name]) => name === 'set-cookie').map(([, v]) => v.split(';')[0])).toEqual(['a=1', 'b=2'])
      expect(res.headers.getSetCookie().map((v) => v.split(';')[0])).toEqual(['a=1', 'b=2'])
    })

    it('a denied request and a plugin that replies: their verdict and outcome', async () => {
      reset()
      expect((await t.request({ url: '/guarded', headers: { 'x-trace': '1' } })).status).toBe(401)
      expect(told.security).toMatchObject([{ callback: 'checkToken', verdict: 'denied', status: 401 }])
      reset()
      const res = await t.request({ url: '/guarded', headers: { 'x-trace': '1', 'x-token': 't', 'x-stop': '1' } })
      expect(res.status).toBe(409)
      expect(told.plugins.map((p) => p.outcome)).toEqual([{ kind: 'continued' }, { kind: 'replied', status: 409 }])
      expect(told.headers[0]).toContainEqual(['content-type', 'application/json; charset=utf-8'])
    })

    it('a request the observer does not trace reports nothing; the app is unchanged', async () => {
      reset()
      const res = await t.request({ url: '/guarded', headers: { 'x-token': 't' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-app-hook')).toBe('ran')
      expect(told).toEqual({ plugins: [], security: [], headers: [] })
    })

    it('replies no route made reach the extra hook too', async () => {
      reset()
      const res = await t.request({ url: '/nowhere', headers: { 'x-trace': '1' } })
      expect(res.status).toBe(404)
      expect(told.plugins).toEqual([])
      expect(told.headers[0]).toContainEqual(['x-app-hook', 'ran'])
    })
  },
  { observer, onResponse: [afterTheApp] },
)

it('a Response with immutable headers is listed as sent by the extra hook', async () => {
  const seen: [string, string][][] = []
  const app = createApp(
    {
      bootstrapApplication: 'redirects',
      routes: {
        r: { prefix: '', security: false, routes: [['GET /away', () => Response.redirect('http://x.test/')]] },
      },
    },
    { env: {}, log: () => {}, onResponse: [(res) => void seen.push(res.headerEntries())] },
  )
  const res = await inject(app, '/away')
  expect(res.status).toBe(302)
  expect(seen[0]).toContainEqual(['location', 'http://x.test/'])
})
