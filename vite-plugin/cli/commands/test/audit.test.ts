import { describe, expect, it } from 'vitest'
import { defineWebSocket, staticDir, status } from '../../../../server/index.ts'
import type { AppConfig } from '../../../../server/app/config.ts'
import { audit, auditExitCode, formatAudit } from '../audit.ts'
import { inspectApp } from '../load.ts'
import { DISCOVERED, FIXTURE, runCli, runMain, useTempApps } from './run-cli.ts'

const tempApp = useTempApps()

const ok = () => status(200)
function checkLogin() {
  return true
}
const controllers = { 'src/controllers/things_controller.ts': { list: ok, make: ok, change: ok, drop: ok, any: ok } }

function app(routes: AppConfig['routes']): AppConfig {
  return { bootstrapApplication: 't', routes, controllers }
}

describe('audit', () => {
  it('warns for unsafe methods and wildcard routes, informs for GET, one line per method', () => {
    const { table } = inspectApp(
      app({
        r: {
          prefix: '/t',
          security: false,
          routes: [
            ['GET /', ok],
            ['POST /', ok],
            ['/:id', ok, { methods: ['put', 'patch', 'delete'] }],
            ['ALL /any', ok],
          ],
        },
      }),
    )
    const report = audit(table)
    expect(formatAudit(report).split('\n')).toEqual([
      'WARNINGS',
      'POST /t (things_controller) has no security',
      'PUT /t/:id (things_controller) has no security',
      'PATCH /t/:id (things_controller) has no security',
      'DELETE /t/:id (things_controller) has no security',
      '* /t/any (things_controller) has no security',
      'INFO',
      'GET /t (things_controller) has no security',
      'Summary: 5 warning(s), 1 info(s), 0 secured',
    ])
    expect(report.warnings.at(-1)).toMatchObject({ method: '*', reason: 'wildcard-methods', action: 'list' })
    expect(auditExitCode(report)).toBe(1)
  })

  it('a group with a security callback produces no findings: its routes are listed with their security', () => {
    const { table } = inspectApp(
      app({
        r: {
          prefix: '',
          security: checkLogin,
          routes: [
            ['POST /a', ok],
            ['ALL /b', ok],
            ['GET /c', ok],
          ],
        },
        s: {
          prefix: '/admin',
          security: {
            name: 'adminSession',
            scheme: { type: 'apiKey', in: 'cookie', name: 'sid' },
            check: function requireAdmin() {
              return true
            },
          },
          routes: [['DELETE /users/:id', ok]],
        },
      }),
    )
    const report = audit(table)
    expect(report.warnings).toEqual([])
    expect(report.info).toEqual([])
    expect(report.summary).toEqual({ warnings: 0, info: 0, secured: 4 })
    expect(formatAudit(report).split('\n')).toEqual([
      'SECURED',
      'POST /a (things_controller) checkLogin',
      '* /b (things_controller) checkLogin',
      'GET /c (things_controller) checkLogin',
      'DELETE /admin/users/:id (things_controller) requireAdmin, scheme adminSession',
      'Summary: 0 warning(s), 0 info(s), 4 secured',
    ])
    expect(report.secured.at(-1)).toEqual({
      method: 'DELETE',
      path: '/admin/users/:id',
      controller: 'things_controller',
      action: 'list',
      security: 'requireAdmin',
      scheme: 'adminSession',
    })
    expect(auditExitCode(report)).toBe(0)
  })

  it('only GET findings: INFO lines and exit code 0; static and ws routes read as GET and WS', () => {
    const ws = defineWebSocket({ message: () => {} })
    const { table } = inspectApp(
      app({
        r: {
          prefix: '',
          security: false,
          routes: [
            ['GET /x', ok],
            ['/docs/[...]', staticDir('priv/assets')],
            ['/ws', ws, { protocol: 'ws' }],
          ],
        },
      }),
    )
    const report = audit(table)
    expect(report.info.map((f) => `${f.method} ${f.path} ${f.controller}`)).toEqual([
      'GET /x things_controller',
      'GET /docs/[...] static',
      'WS /ws routes/r',
    ])
    expect(formatAudit(report).split('\n')[0]).toBe('INFO')
    expect(auditExitCode(report)).toBe(0)
  })

  it('end to end: `vela audit` on the fixture app prints the findings and exits 1', async () => {
    const res = await runCli(['audit', '--root', FIXTURE])
    expect(res.stderr).toBe('')
    expect(res.code).toBe(1)
    const lines = res.stdout.trim().split('\n')
    expect(lines).toContain('POST /api/items (items_controller) has no security')
    expect(lines).toContain('* /legacy (routes/public) has no security')
    expect(lines).toContain('GET /api/items/:id (items_controller) has no security')
    // The secured group's routes are no findings: listed under SECURED with their check.
    const secured = lines.slice(lines.indexOf('SECURED') + 1, -1)
    expect(lines.filter((l) => l.includes('/notes'))).toEqual(secured)
    expect(secured).toEqual([
      'GET /notes (notes_controller) usernamePassword',
      'POST /notes (notes_controller) usernamePassword',
    ])
    expect(lines.at(-1)).toBe('Summary: 5 warning(s), 5 info(s), 2 secured')
  })

  it('end to end: --json gives the report shape and the same exit code', async () => {
    const res = await runCli(['audit', '--json', '--root', FIXTURE])
    expect(res.code).toBe(1)
    const report = JSON.parse(res.stdout)
    expect(report.summary).toEqual({ warnings: 5, info: 5, secured: 2 })
    expect(report.warnings[0]).toEqual({
      method: '*',
      path: '/legacy',
      controller: 'routes/public',
      action: 'anonymous',
      reason: 'wildcard-methods',
    })
  })

  it('exit status 0 without warnings (INFO only), with or without --json', async () => {
    const text = await runMain(['audit', '--root', DISCOVERED])
    expect(text).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'INFO\nGET /pets (pets_controller) has no security\nSummary: 0 warning(s), 1 info(s), 0 secured\n',
    })
    const json = await runMain(['audit', '--json', '--root', DISCOVERED])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout).summary).toEqual({ warnings: 0, info: 1, secured: 0 })
  })

  it('exit status 2 when the audit cannot run: an app that does not load, bad flags; never 1', async () => {
    const broken = tempApp({ 'src/app.ts': "throw new Error('app.ts fails on purpose')\n" })
    for (const argv of [
      ['audit', '--root', broken],
      ['audit', '--json', '--root', broken],
    ]) {
      expect(await runMain(argv)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'vela audit: app.ts fails on purpose\n',
        cwdAfter: broken,
      })
    }
    const badFlag = await runMain(['audit', '--strict', '--root', FIXTURE])
    expect(badFlag).toMatchObject({ code: 2, stdout: '' })
    expect(badFlag.stderr).toMatch(/^vela audit: unknown option --strict\n\nusage: vela audit \[options\]\n/)
  })
})
