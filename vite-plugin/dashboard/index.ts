/**
 * The development dashboard at `/__vela`, served by the dev server (`vela serve`, or `vite` with
 * `vela()`) before the app's routes, for an app in the `dev` environment only: in any other
 * environment the path is the app's (a 404). It lists the last requests (recorded by the
 * runtime's recorder, server/dashboard/), opens each into its detail and waterfall, streams new
 * ones as Server-Sent Events, and shows the app's routes, pipelines, audit, configuration,
 * migrations, WebSocket connections and topics, and recent figures with live charts, and the
 * app's background jobs with retry and cancel (jobs.ts), and the mail the app's mailers kept
 * instead of sending (mail.ts). Loopback peers with the start's token only (access.ts).
 */
import { readFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { VelaApp } from '../../server/app/create-app.ts'
import { attachToRequests } from '../../server/dashboard/context.ts'
import type { Recorder, RecorderOptions } from '../../server/dashboard/recorder.ts'
import { dashboardRecorder } from '../../server/dashboard/recorder.ts'
import type { RequestStoreOptions } from '../../server/dashboard/store.ts'
import { RequestStore } from '../../server/dashboard/store.ts'
import { DEFAULT_CSP_DIRECTIVES } from '../../server/plugins/security-headers/csp.ts'
import { TOKEN_COOKIE, isLoopback, newToken, tokenMatches, tokenOf } from './access.ts'
import { appPage } from './app-page.ts'
import { charts } from './charts.ts'
import { actOnJob, jobsView } from './jobs.ts'
import { MAIL_HTML_CSP, mailHtml, mailListView, mailView } from './mail.ts'
import type { MigrationsView } from './migrations.ts'
import { ASSETS, matches, pipelineSteps, render, summary, waterfall } from './pages.ts'

/** The dashboard's options (`vela({ dev: { dashboard } })`); `false` turns it off. */
export interface DashboardOptions extends RequestStoreOptions, RecorderOptions {}

/** A dashboard for one dev server. */
export interface Dashboard {
  /** The per-start token the link carries. */
  readonly token: string
  readonly store: RequestStore
  /** The recorder each app is made with (`withRecorder` adds it to `createApp`'s options). */
  readonly recorder: Recorder
  /** Answers `req` when it is the dashboard's (true), else leaves it to the app (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean
  /** The WebSockets of the dev server's listener, once it listens: set by whoever attached them (`vela serve`, Vite's server). */
  websockets: DashboardWebSockets | undefined
  /** The link to print: `<base>/__vela?token=…`. */
  link(base: string): string
  close(): void
}

/** What the app page shows of the listener's WebSockets (server/listener/websockets.ts gives it). */
export interface DashboardWebSockets {
  readonly openCount: number
  topicCounts(): Map<string, number>
}

/** What the dashboard reads of the app beyond its route table and configuration (the dev app gives it). */
export interface DashboardSources {
  /** The migrations applied and pending (migrations.ts). */
  migrations?: () => Promise<MigrationsView>
}

/** Topics listed on the app page, most subscribed first: an app may name one per user or room. */
const TOPICS_SHOWN = 50

/** The path the dashboard answers under. */
export const DASHBOARD_PATH = '/__vela'

const CSP = Object.entries(DEFAULT_CSP_DIRECTIVES)
  .map(([name, sources]) => [name, ...sources].join(' '))
  .join('; ')

const ASSET_TYPES: Record<string, string> = {
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
}

/** Makes the dashboard of a dev server whose current app `current()` gives; `sources` add what only the dev app can read (its migrations). */
export function createDashboard(
  current: () => VelaApp,
  opts: DashboardOptions = {},
  sources: DashboardSources = {},
): Dashboard {
  const token = newToken()
  const store = new RequestStore(opts)
  const recorder = dashboardRecorder(store, opts)
  const detach = attachToRequests()
  const streams = new Set<ServerResponse>()
  const unsubscribe = store.subscribe((record) => {
    if (streams.size === 0) return
    const data = `event: request\ndata: ${JSON.stringify(summary(record))}\n\n`
    for (const res of streams) res.write(data)
  })

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    extra: Record<string, string> = {},
  ) => {
    res.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...extra,
    })
    res.end(body)
  }
  const html = (res: ServerResponse, page: Promise<string>) =>
    page.then(
      (body) => send(res, 200, 'text/html; charset=utf-8', body),
      (err: unknown) =>
        send(res, 500, 'text/plain; charset=utf-8', `dashboard: ${err instanceof Error ? err.stack : String(err)}`),
    )

  async function answer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice(DASHBOARD_PATH.length) || '/'
    const app = current().config.bootstrapApplication
    // The one kind of write: a job's retry or cancel, from the Jobs page's buttons (the token
    // cookie is SameSite=Strict, so another site's form cannot post here with it).
    const action = /^\/jobs\/([0-9a-f-]{36})\/(retry|cancel)$/.exec(path)
    if (action && req.method === 'POST') {
      const done = await actOnJob(action[2] as 'retry' | 'cancel', action[1]!)
      if (!done)
        return send(
          res,
          409,
          'text/plain; charset=utf-8',
          `run ${action[1]} cannot be ${action[2] === 'retry' ? 'retried' : 'cancelled'} in its state`,
        )
      res.writeHead(303, { location: `${DASHBOARD_PATH}/jobs`, 'cache-control': 'no-store' })
      return void res.end()
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed', { allow: action ? 'POST' : 'GET, HEAD' })
    if (path.startsWith('/assets/')) {
      const name = path.slice('/assets/'.length)
      const type = ASSET_TYPES[name]
      if (!type) return send(res, 404, 'text/plain; charset=utf-8', 'not found')
      return send(res, 200, type, await readFile(join(ASSETS, name)))
    }
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
      res.write(': connected\n\n')
      streams.add(res)
      res.on('close', () => streams.delete(res))
      return
    }
    if (path === '/' || path === '') {
      const filter = {
        status: url.searchParams.get('status') ?? '',
        route: url.searchParams.get('route') ?? '',
        text: url.searchParams.get('text') ?? '',
      }
      const all = store.list()
      const rows = all.filter((r) => matches(r, filter)).map(summary)
      return html(
        res,
        render('requests', {
          title: 'Requests',
          page: 'requests',
          app,
          filter,
          rows,
          shown: rows.length,
          total: all.length,
          limit: store.limit,
          filtered: !!(filter.status || filter.route || filter.text),
        }),
      )
    }
    const detail = /^\/requests\/([^/]+)$/.exec(path)
    if (detail) {
      const r = store.get(decodeURIComponent(detail[1]!))
      if (!r) return send(res, 404, 'text/plain; charset=utf-8', 'that request is no longer kept')
      const group = r.route
        ? appPage(current()).groups.find((g) => g.routes.some((x) => x.path === r.route!.path))
        : undefined
      return html(
        res,
        render('request', {
          title: `${r.method} ${r.path}`,
          page: 'request',
          app,
          r,
          s: summary(r),
          spans: waterfall(r),
          steps: pipelineSteps(r),
          group,
        }),
      )
    }
    if (path === '/app') {
      const page = appPage(current(), store.list())
      const live = dashboard.websockets
      const topics = [...(live?.topicCounts() ?? [])].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      const websockets = {
        routes: page.groups.flatMap((g) => g.routes.filter((r) => r.kind === 'ws')),
        open: live?.openCount,
        topics: topics.slice(0, TOPICS_SHOWN).map(([name, subscribers]) => ({ name, subscribers })),
        moreTopics: Math.max(0, topics.length - TOPICS_SHOWN),
      }
      const migrations = (await sources.migrations?.()) ?? { state: 'none' }
      return html(
        res,
        render('app', {
          title: 'App',
          page: 'app',
          app,
          ...page,
          websockets,
          migrations,
          charts: charts(store.list()),
        }),
      )
    }
    if (path === '/jobs')
      return html(
        res,
        jobsView().then((jobs) => render('jobs', { title: 'Jobs', page: 'jobs', app, jobs })),
      )
    if (path === '/mail') return html(res, render('mail', { title: 'Mail', page: 'mail', app, mail: mailListView() }))
    const mail = /^\/mail\/(\d{1,15})(\/html)?$/.exec(path)
    if (mail) {
      const id = Number(mail[1])
      if (mail[2]) {
        const body = mailHtml(id)
        if (body === undefined) return send(res, 404, 'text/plain; charset=utf-8', `no HTML for message ${id}`)
        return send(res, 200, 'text/html; charset=utf-8', body, { 'content-security-policy': MAIL_HTML_CSP })
      }
      const message = mailView(id)
      if (!message) return send(res, 404, 'text/plain; charset=utf-8', `no message ${id} in the mailbox`)
      return html(res, render('mail-message', { title: message.subject, page: 'mail', app, message }))
    }
    if (path === '/charts') return html(res, render('charts', { charts: charts(store.list()) }))
    if (path === '/requests.json') return send(res, 200, 'application/json', JSON.stringify(store.list()))
    send(res, 404, 'text/plain; charset=utf-8', 'not found')
  }

  const dashboard: Dashboard = {
    token,
    store,
    recorder,
    websockets: undefined,
    handle(req, res) {
      const target = req.url ?? '/'
      if (
        target !== DASHBOARD_PATH &&
        !target.startsWith(`${DASHBOARD_PATH}/`) &&
        !target.startsWith(`${DASHBOARD_PATH}?`)
      )
        return false
      if (current().config.environment !== 'dev') return false
      if (!isLoopback(req.socket.remoteAddress)) {
        send(res, 403, 'text/plain; charset=utf-8', 'The Vela dashboard answers loopback clients only.\n')
        return true
      }
      const url = new URL(target, 'http://localhost')
      const given = tokenOf(req, url)
      if (!tokenMatches(given.token, token)) {
        send(
          res,
          403,
          'text/plain; charset=utf-8',
          'The Vela dashboard needs its token: open the link `vela serve` printed when it started.\n',
        )
        return true
      }
      if (given.fromQuery) {
        // The token moves into a cookie, and out of the address bar (and of the history).
        url.searchParams.delete('token')
        res.writeHead(303, {
          location: url.pathname + url.search,
          'set-cookie': `${TOKEN_COOKIE}=${token}; Path=${DASHBOARD_PATH}; HttpOnly; SameSite=Strict`,
          'cache-control': 'no-store',
        })
        res.end()
        return true
      }
      answer(req, res, url).catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `dashboard: ${String(err)}`)
        else res.end()
      })
      return true
    },
    link: (base) => `${base.replace(/\/$/, '')}${DASHBOARD_PATH}?token=${token}`,
    close() {
      unsubscribe()
      detach()
      for (const res of streams) res.end()
      streams.clear()
    },
  }
  return dashboard
}
