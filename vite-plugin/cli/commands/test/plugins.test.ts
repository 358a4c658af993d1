import { describe, expect, it } from 'vitest'
import { definePlugin, ok, requestPlugin, sessionPlugin, status } from '../../../../server/index.ts'
import { isSecretKey } from '../redact.ts'
import { inspectApp } from '../load.ts'
import { describePlugins, formatPlugins } from '../plugins.ts'
import { FIXTURE, runCli, runMain, useTempApps } from './run-cli.ts'

const tempApp = useTempApps()
const SECRET = 'session-secret-0123456789-0123456789'
const PASSWORD = 'db-password-hunter2'

const handler = () => status(200)
const audit = definePlugin({
  name: 'audit-log',
  info: { title: 'Audit log', version: '2.1.0', author: 't', description: '', options: {} },
  postRequest: (req) => ok(req),
})
function requireUser() {
  return true
}
const { table } = inspectApp({
  bootstrapApplication: 't',
  plugins: [requestPlugin({ json: true })],
  routes: {
    'src/routes/web.ts': [
      {
        prefix: '',
        security: false,
        routes: [
          ['GET /a', handler],
          [404, handler],
        ],
      },
      {
        prefix: '/admin',
        security: requireUser,
        plugins: [audit({ level: 'info' })],
        routes: [['ALL /b', handler]],
      },
      { prefix: '/raw', security: (_req) => true, plugins: [], routes: [] },
    ],
  },
  controllers: { 'src/controllers/pages_controller.ts': { page: handler } },
})

describe('vela plugins', () => {
  it('prints global plugins, then each group: prefix, security, plugins or (inherits global), routes, status routes', () => {
    expect(formatPlugins(table).split('\n')).toEqual([
      'Global plugins',
      '  pre_request  request 1.0.0  {"json":true}',
      '',
      'Group ""  (declared in src/routes/web.ts group 0)',
      '  security  false',
      '  plugins   (inherits global)',
      '  routes',
      '    GET  /a  pages_controller.page',
      '  status',
      '    404  pages_controller.page',
      '',
      'Group /admin  (declared in src/routes/web.ts group 1)',
      '  security  requireUser',
      '  plugins',
      '    post_request  audit-log 2.1.0  {"level":"info"}',
      '  routes',
      '    *  /admin/b  pages_controller.page',
      '',
      'Group /raw  (declared in src/routes/web.ts group 2)',
      '  security  anonymous',
      '  plugins',
      '    (none)',
      '  routes',
      '    (none)',
    ])
  })

  it('a plugin in both phases has a line per phase; one without info shows its name, no version', () => {
    const both = definePlugin({ name: 'both', preRequest: (req) => ok(req), postRequest: (req) => ok(req) })
    const app = inspectApp({
      bootstrapApplication: 't',
      plugins: [both({ level: 2 })],
      routes: { 'src/routes/web.ts': { prefix: '', security: false, routes: [['GET /a', handler]] } },
    })
    expect(formatPlugins(app.table).split('\n').slice(0, 3)).toEqual([
      'Global plugins',
      '  pre_request   both  {"level":2}',
      '  post_request  both  {"level":2}',
    ])
    expect(describePlugins(app.table).global[0]).toEqual({
      phase: 'pre_request',
      plugin: 'both',
      version: '',
      title: 'both',
      options: { level: 2 },
    })
  })

  it('JSON: the plugin list in effect per group and whether it is inherited', () => {
    const report = describePlugins(table)
    expect(report.global).toEqual([
      {
        phase: 'pre_request',
        plugin: 'request',
        version: '1.0.0',
        title: 'Request body decoding',
        options: { json: true },
      },
    ])
    expect(report.groups.map((g) => [g.prefix, g.security, g.inheritsGlobal, g.plugins.map((p) => p.plugin)])).toEqual([
      ['', false, true, ['request']],
      ['/admin', 'requireUser', false, ['audit-log']],
      ['/raw', 'anonymous', false, []],
    ])
    expect(report.groups[0]!.statusRoutes).toEqual([{ status: 404, controller: 'pages_controller', action: 'page' }])
    expect(report.groups[1]!.routes).toEqual([
      { methods: 'all', path: '/admin/b', controller: 'pages_controller', action: 'page', kind: 'http' },
    ])
  })

  it('end to end: `vela plugins` and `--json` on the fixture app; `vela middleware` is the same command', async () => {
    const res = await runCli(['plugins', '--root', FIXTURE])
    expect(res.code).toBe(0)
    expect(res.stderr).toBe('')
    const text = res.stdout
    expect(text).toMatch(
      /^Global plugins\n {2}pre_request {2}request 1\.0\.0 {2}\{"json":true\}\n {2}pre_request {2}cors 1\.0\.0 {5}\{"allowOrigins":"\*"\}\n/,
    )
    expect(text).toContain(
      'Group /notes  (declared in src/routes/notes.ts group 0)\n  security  usernamePassword\n  plugins\n    (none)\n',
    )
    expect(text).toContain(
      'Group /api  (declared in src/routes/api.ts group 0)\n  security  false\n  plugins   (inherits global)\n',
    )
    const json = JSON.parse((await runCli(['plugins', '--json', '--root', FIXTURE])).stdout)
    expect(json.groups.map((g: { prefix: string }) => g.prefix)).toEqual(['', '/api', '/notes'])
    expect(json.groups[2].statusRoutes).toEqual([{ status: 404, controller: 'notes_controller', action: 'notFound' }])
    // The older name runs the same command.
    const alias = await runCli(['middleware', '--root', FIXTURE])
    expect(alias).toMatchObject({ code: 0, stderr: '', stdout: text })
  })

  it('secrets: option values under a key naming a secret print as [redacted], at any depth, structure kept', () => {
    const store = definePlugin({
      name: 'store',
      info: { title: 'Store', version: '1.0.0', author: 't', description: '', options: {} },
      postRequest: (req) => ok(req),
    })
    function keyGenerator() {
      return 'k'
    }
    const options = {
      db: { host: 'db.internal', password: PASSWORD, pool: { max: 5 } },
      apiKey: 'ak-123',
      signingKeys: ['k1', 'k2'],
      credentials: { user: 'svc', pass: 'pw' },
      keyGenerator,
      tokenSecret: null,
      maxAge: 3600,
    }
    const { table: app } = inspectApp({
      bootstrapApplication: 't',
      routes: {
        'src/routes/web.ts': {
          prefix: '',
          security: false,
          plugins: [sessionPlugin({ secret: SECRET, maxAge: 600 }), store(options)],
          routes: [],
        },
      },
    })
    const plugins = describePlugins(app).groups[0]!.plugins
    expect(plugins.map((p) => p.options)).toEqual([
      { secret: '[redacted]', maxAge: 600 },
      { secret: '[redacted]', maxAge: 600 },
      {
        db: { host: 'db.internal', password: '[redacted]', pool: { max: 5 } },
        apiKey: '[redacted]',
        signingKeys: ['[redacted]', '[redacted]'],
        credentials: { user: '[redacted]', pass: '[redacted]' },
        keyGenerator: '<function keyGenerator>',
        tokenSecret: null,
        maxAge: 3600,
      },
    ])
    const text = formatPlugins(app)
    expect(text).toContain('pre_request   session 1.1.0  {"secret":"[redacted]","maxAge":600}')
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(PASSWORD)
  })

  it('the secret-key rule: the words secret, password, passwd, token, credential, key anywhere in the key, any case', () => {
    const secret = [
      'secret',
      'sessionSecret',
      'DB_PASSWORD',
      'passwd',
      'accessToken',
      'apiKey',
      'apikey',
      'privateKey',
      'signingKeys',
      'credentials',
      'keyPrefix',
    ]
    const shown = [
      'maxAge',
      'cookieName',
      'secure',
      'allowOrigins',
      'decodeJsonBody',
      'keepAliveTimeout',
      'host',
      'pass',
    ]
    expect(secret.filter((k) => !isSecretKey(k))).toEqual([])
    expect(shown.filter(isSecretKey)).toEqual([])
  })

  it('end to end: `vela plugins` and `--json` never print the session secret or a nested password', async () => {
    const dir = tempApp({
      'src/app.ts': `import { defineApp, requestPlugin, sessionPlugin } from 'vela'
export default defineApp({
  bootstrapApplication: 'secrets',
  plugins: [sessionPlugin({ secret: '${SECRET}', maxAge: 600 }), requestPlugin({ json: true, store: { password: '${PASSWORD}' } })],
  routes: {},
})
`,
    })
    const text = await runMain(['plugins', '--root', dir])
    expect(text).toMatchObject({ code: 0, stderr: '' })
    expect(text.stdout).toContain('pre_request   session 1.1.0  {"secret":"[redacted]","maxAge":600}')
    expect(text.stdout).toContain('pre_request   request 1.0.0  {"json":true,"store":{"password":"[redacted]"}}')
    const json = await runMain(['plugins', '--json', '--root', dir])
    expect(JSON.parse(json.stdout).global.map((p: { options: unknown }) => p.options)).toEqual([
      { secret: '[redacted]', maxAge: 600 },
      { json: true, store: { password: '[redacted]' } },
      { secret: '[redacted]', maxAge: 600 },
    ])
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain(SECRET)
      expect(out).not.toContain(PASSWORD)
    }
  })
})
