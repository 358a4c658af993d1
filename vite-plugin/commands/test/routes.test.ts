import { describe, expect, it } from 'vitest'
import { defineWebSocket, staticDir, status } from '../../../server/index.ts'
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
      { prefix: '', security: false, routes: [['/heartbeat', ok, { methods: ['get', 'head'] }], ['/docs/[...]', staticDir('priv/assets')], ['/ws', ws, { protocol: 'ws' }]] },
      { prefix: '/api', security: () => true, routes: [['/things/:id', ok, { methods: ['put', 'patch'] }], ['/any', () => status(204)]] },
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
      '*          /docs/[...]      static.serve              ""     static',
      '*          /ws              routes/web.anonymous      ""     ws',
      'PUT,PATCH  /api/things/:id  things_controller.change  /api   http',
      '*          /api/any         routes/web.anonymous      /api   http',
    ])
  })

  it('JSON: hosts → routes with methods ("all" for a wildcard), kind and where each was declared', () => {
    const report = listRoutes(table)
    expect(report.hosts).toHaveLength(1)
    expect(report.hosts[0]!.host).toBe('*')
    expect(report.hosts[0]!.routes[1]).toEqual({
      methods: 'all',
      path: '/docs/[...]',
      controller: 'static',
      action: 'serve',
      prefix: '',
      kind: 'static',
      source: 'src/routes/web.ts group 0 route 1',
    })
    expect(report.hosts[0]!.routes.map((r) => r.kind)).toEqual(['http', 'static', 'ws', 'http', 'http'])
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
    expect(lines).toHaveLength(2 + 11)
    expect(lines.find((l) => l.includes('/api/items/:id') && l.startsWith('PUT,PATCH'))).toMatch(/^PUT,PATCH\s+\/api\/items\/:id\s+items_controller\.update\s+\/api\s+http$/)
    expect(lines.find((l) => l.includes('/ws'))).toMatch(/\sws$/)
    const json = await runCli(['routes', '--json', '--root', FIXTURE])
    expect(json.code).toBe(0)
    const routes = JSON.parse(json.stdout).hosts[0].routes
    expect(routes.find((r: { path: string }) => r.path === '/notes')).toMatchObject({ methods: ['GET'], controller: 'notes_controller', action: 'index', prefix: '/notes' })
  })

  it('end to end: an app listing no modules gets its src/routes and src/controllers discovered', async () => {
    const res = await runCli(['routes', '--root', fileURLToPath(new URL('./fixtures/discovered', import.meta.url))])
    expect(res.code).toBe(0)
    expect(res.stdout.trim().split('\n').slice(2)).toEqual(['GET     /pets  pets_controller.index  /pets  http'])
  })
})
