import { describe, expect, it } from 'vitest'
import { defineWebSocket, staticDir, status } from '../../../../server/index.ts'
import { inspectApp } from '../load.ts'
import { formatRoutes, listRoutes } from '../routes.ts'
import { FIXTURE, runCli } from './run-cli.ts'
import { fileURLToPath } from 'node:url'

const ok = () => status(200)
const ws = defineWebSocket({ message: () => {} })
const { table } = inspectApp({
  bootstrapApplication: 't',
  routes: {
    'src/routes/web.ts': [
      {
        prefix: '',
        security: false,
        routes: [
          ['/heartbeat', ok, { methods: ['get', 'head'] }],
          ['/docs/[...]', staticDir('priv/assets')],
          ['/ws', ws, { protocol: 'ws' }],
        ],
      },
      {
        prefix: '/api',
        security: () => true,
        routes: [
          ['/things/:id', ok, { methods: ['put', 'patch'] }],
          ['ALL /any', () => status(204)],
        ],
      },
    ],
  },
  controllers: { 'src/controllers/things_controller.ts': { change: ok } },
})

describe('routes', () => {
  it('prints one aligned table for the single host: methods, path, controller.action, group prefix, kind', () => {
    expect(formatRoutes(table).split('\n')).toEqual([
      'host * (Vela routes every Host alike)',
      'METHOD     PATH             CONTROLLER.ACTION         GROUP  KIND',
      'GET,HEAD   /heartbeat       things_controller.change  ""     http',
      'GET        /docs/[...]      static.serve              ""     static',
      'GET        /ws              routes/web.anonymous      ""     ws',
      'PUT,PATCH  /api/things/:id  things_controller.change  /api   http',
      '*          /api/any         routes/web.anonymous      /api   http',
    ])
  })

  it('JSON: hosts → routes with methods ("all" for an ALL route), kind and where each was declared', () => {
    const report = listRoutes(table)
    expect(report.hosts).toHaveLength(1)
    expect(report.hosts[0]!.host).toBe('*')
    expect(report.hosts[0]!.routes[4]).toMatchObject({ methods: 'all', path: '/api/any' })
    expect(report.hosts[0]!.routes[1]).toEqual({
      methods: ['GET'],
      path: '/docs/[...]',
      controller: 'static',
      action: 'serve',
      prefix: '',
      kind: 'static',
      source: 'src/routes/web.ts group 0 route 1',
    })
    expect(report.hosts[0]!.routes.map((r) => r.kind)).toEqual(['http', 'static', 'ws', 'http', 'http'])
  })

  it('status routes follow their group: the status, the paths under the prefix, the handler, kind status; JSON lists them apart', () => {
    const { table: withStatus } = inspectApp({
      bootstrapApplication: 't',
      routes: {
        'src/routes/web.ts': [
          {
            prefix: '',
            security: false,
            routes: [
              [500, ok],
              ['GET /a', ok],
            ],
          },
          {
            prefix: '/api/',
            security: false,
            routes: [
              ['POST /x', ok],
              [404, () => status(404)],
              [405, ok],
            ],
          },
        ],
      },
      controllers: { 'src/controllers/pages_controller.ts': { page: ok } },
    })
    expect(formatRoutes(withStatus).split('\n').slice(1)).toEqual([
      'METHOD  PATH        CONTROLLER.ACTION      GROUP  KIND',
      'GET     /a          pages_controller.page  ""     http',
      '500     /[...]      pages_controller.page  ""     status',
      'POST    /api/x      pages_controller.page  /api/  http',
      '404     /api/[...]  routes/web.anonymous   /api/  status',
      '405     /api/[...]  pages_controller.page  /api/  status',
    ])
    const [host] = listRoutes(withStatus).hosts
    expect(host!.routes.map((r) => r.path)).toEqual(['/a', '/api/x'])
    expect(host!.statusRoutes).toEqual([
      {
        status: 500,
        prefix: '',
        controller: 'pages_controller',
        action: 'page',
        source: 'src/routes/web.ts group 0 status 500',
      },
      {
        status: 404,
        prefix: '/api/',
        controller: 'routes/web',
        action: 'anonymous',
        source: 'src/routes/web.ts group 1 status 404',
      },
      {
        status: 405,
        prefix: '/api/',
        controller: 'pages_controller',
        action: 'page',
        source: 'src/routes/web.ts group 1 status 405',
      },
    ])
    const onlyStatus = inspectApp({
      bootstrapApplication: 's',
      routes: { 'src/routes/web.ts': { prefix: '', security: false, routes: [[404, ok]] } },
    })
    expect(formatRoutes(onlyStatus.table).split('\n').at(-1)).toMatch(
      /^404\s+\/\[\.\.\.\]\s+routes\/web\.anonymous\s+""\s+status$/,
    )
  })

  it('an app without routes says so', () => {
    const empty = inspectApp({ bootstrapApplication: 'e', routes: {} })
    expect(formatRoutes(empty.table)).toBe('host * (Vela routes every Host alike)\n(no routes)')
  })

  it('end to end: `vela routes` and `vela routes --json` on the fixture app', async () => {
    const text = await runCli(['routes', '--root', FIXTURE])
    expect(text.code).toBe(0)
    expect(text.stderr).toBe('')
    const lines = text.stdout.trim().split('\n')
    expect(lines[0]).toBe('host * (Vela routes every Host alike)')
    expect(lines).toHaveLength(2 + 11 + 1)
    expect(lines.at(-1)).toMatch(/^404\s+\/notes\/\[\.\.\.\]\s+notes_controller\.notFound\s+\/notes\s+status$/)
    expect(lines.find((l) => l.includes('/api/items/:id') && l.startsWith('PUT,PATCH'))).toMatch(
      /^PUT,PATCH\s+\/api\/items\/:id\s+items_controller\.update\s+\/api\s+http$/,
    )
    expect(lines.find((l) => l.includes('/ws'))).toMatch(/\sws$/)
    const json = await runCli(['routes', '--json', '--root', FIXTURE])
    expect(json.code).toBe(0)
    const routes = JSON.parse(json.stdout).hosts[0].routes
    expect(routes.find((r: { path: string }) => r.path === '/notes')).toMatchObject({
      methods: ['GET'],
      controller: 'notes_controller',
      action: 'index',
      prefix: '/notes',
    })
    expect(JSON.parse(json.stdout).hosts[0].statusRoutes).toEqual([
      {
        status: 404,
        prefix: '/notes',
        controller: 'notes_controller',
        action: 'notFound',
        source: 'src/routes/notes.ts group 0 status 404',
      },
    ])
  })

  it('end to end: an app listing no modules gets its src/routes and src/controllers discovered', async () => {
    const res = await runCli(['routes', '--root', fileURLToPath(new URL('./fixtures/discovered', import.meta.url))])
    expect(res.code).toBe(0)
    expect(res.stdout.trim().split('\n').slice(2)).toEqual(['GET     /pets  pets_controller.index  /pets  http'])
  })
})
