import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../../../server/app/config.ts'
import {
  metricsStreamHandler,
  redisPubSub,
  requestPlugin,
  securityHeaders,
  sessionPlugin,
} from '../../../../server/index.ts'
import { configEntries, formatConfig } from '../config.ts'
import { FIXTURE, runCli, runMain, useTempApps } from './run-cli.ts'

const tempApp = useTempApps()
const SECRET = 'session-secret-0123456789-0123456789'

describe('config', () => {
  it('marks every value that kept its built-in default', () => {
    const config = resolveConfig({ bootstrapApplication: 'shop', routes: {} }, {})
    const lines = formatConfig(config, {}).split('\n')
    expect(lines[0]).toMatch(/^bootstrapApplication\s+shop$/)
    expect(lines.slice(1).every((l) => l.endsWith(' (default)'))).toBe(true)
    expect(lines.map((l) => l.split(/\s{2,}/)[0])).toEqual([
      'bootstrapApplication',
      'environment',
      'server.port',
      'server.host',
      'server.streamHandlers',
      'server.bodyLimit',
      'server.maxUrlLength',
      'server.maxFields',
      'server.keepAliveTimeout',
      'server.headersTimeout',
      'server.requestTimeout',
      'server.handlerTimeout',
      'server.sendTimeout',
      'server.trustProxy',
      'server.requestId',
      'server.health',
      'server.drainDelay',
      'server.shutdownTimeout',
      'server.websocket.maxMessageBytes',
      'server.websocket.maxBufferedBytes',
      'server.websocket.maxMessagesPerSecond',
      'server.websocket.idleTimeout',
      'server.websocket.closeTimeout',
      'server.websocket.allowedOrigins',
      'server.websocket.pubsub',
      'server.options.compress',
      'server.options.metricsCallback',
      'plugins',
      'onRequest',
      'onResponse',
      'jsonLib',
      'useStacktrace',
      'dispatchBackend',
    ])
    expect(lines).toContain('environment                            dev (default)')
    expect(lines).toContain('server.port                            8080 (default)')
    expect(lines).toContain('dispatchBackend                        compiled (default)')
    expect(lines).toContain('server.health                          {"live":"/livez","ready":"/readyz"} (default)')
    expect(lines).toContain('server.shutdownTimeout                 10000 (default)')
    expect(lines).toContain(
      'server.requestId                       {"header":"x-request-id","trustIncoming":true} (default)',
    )
    const off = formatConfig(
      resolveConfig(
        { bootstrapApplication: 'shop', server: { health: false, drainDelay: 5000, requestId: false } },
        {},
      ),
      {},
    )
    expect(off).toMatch(/^server\.requestId\s+false$/m)
    expect(off).toMatch(/^server\.health\s+false$/m)
    expect(off).toMatch(/^server\.drainDelay\s+5000$/m)
    expect(lines).toContain('server.websocket.pubsub                (none) (default)')
  })

  it('values set by the app are shown without the mark; functions by name; env overrides say where they come from', () => {
    function onMetrics() {}
    const app = {
      bootstrapApplication: 'shop',
      environment: 'prod',
      server: {
        port: 9000,
        streamHandlers: [metricsStreamHandler, 'default'] as const,
        websocket: { pubsub: redisPubSub({ url: 'redis://:password@10.0.0.5:6380' }) },
        options: { compress: true, metricsCallback: onMetrics },
      },
      plugins: [requestPlugin({ json: true })] as const,
      onResponse: [securityHeaders()],
      jsonLib: { encode: JSON.stringify, decode: JSON.parse },
      useStacktrace: true,
      dispatchBackend: 'tree' as const,
      routes: {},
    }
    const env = { VELA_ENV: 'staging' }
    const entries = Object.fromEntries(configEntries(resolveConfig(app, env), env).map((e) => [e.key, e]))
    expect(entries.environment).toEqual({ key: 'environment', value: 'staging', default: false, source: 'env' })
    expect(entries['server.port']).toEqual({ key: 'server.port', value: 9000, default: false, source: 'app' })
    expect(entries['server.streamHandlers']!.value).toEqual([metricsStreamHandler.name, 'default'])
    expect(entries['server.options.metricsCallback']!.value).toBe('<function onMetrics>')
    expect(entries['server.websocket.pubsub']).toMatchObject({
      value: '<function redisPubSub(10.0.0.5:6380)>',
      default: false,
    })
    expect(entries['server.options.compress']).toMatchObject({ value: true, default: false })
    expect(entries.jsonLib).toMatchObject({ value: 'custom { encode, decode }', default: false })
    expect(entries['server.bodyLimit']).toMatchObject({ default: true, source: 'default' })
    const text = formatConfig(resolveConfig(app, env), env)
    expect(text).toMatch(/^environment\s+staging \(from VELA_ENV\)$/m)
    expect(text).toMatch(/^plugins\s+\[pre_request request \{"json":true\}\]$/m)
    expect(text).toMatch(/^useStacktrace\s+true$/m)
    expect(text).toMatch(/^onResponse\s+\[securityHeaders\]$/m)
    const proxied = { VELA_TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }
    expect(formatConfig(resolveConfig(app, proxied), proxied)).toMatch(
      /^server\.trustProxy\s+\[10\.0\.0\.0\/8, 127\.0\.0\.1\] \(from VELA_TRUST_PROXY\)$/m,
    )
  })

  it('end to end: `vela config` and `--json` on the fixture app', async () => {
    const res = await runCli(['config', '--root', FIXTURE])
    expect(res.code).toBe(0)
    expect(res.stderr).toBe('')
    expect(res.stdout).toMatch(/^bootstrapApplication\s+fixture$/m)
    expect(res.stdout).toMatch(/^server\.port\s+4010$/m)
    expect(res.stdout).toMatch(/^server\.bodyLimit\s+1048576 \(default\)$/m)
    const fromEnv = await runCli(['config', '--json', '--root', FIXTURE], { PORT: '9100' })
    const port = JSON.parse(fromEnv.stdout).config.find((e: { key: string }) => e.key === 'server.port')
    expect(port).toEqual({ key: 'server.port', value: 9100, default: false, source: 'env' })
  })

  it('secrets: plugin options under secret keys print as [redacted], in text and JSON, structure kept', async () => {
    const app = {
      bootstrapApplication: 'shop',
      plugins: [
        sessionPlugin({ secret: SECRET, cookieName: 'sid' }),
        ['pre_request', requestPlugin, { json: true, auth: { tokens: ['t1', 't2'] } }],
      ] as const,
      routes: {},
    }
    const config = resolveConfig(app, {})
    const plugins = configEntries(config, {}).find((e) => e.key === 'plugins')!.value as { options: unknown }[]
    expect(plugins.map((p) => p.options)).toEqual([
      { secret: '[redacted]', cookieName: 'sid' },
      { secret: '[redacted]', cookieName: 'sid' },
      { json: true, auth: { tokens: ['[redacted]', '[redacted]'] } },
    ])
    const text = formatConfig(config, {})
    expect(text).toMatch(/^plugins\s+\[pre_request session \{"secret":"\[redacted\]","cookieName":"sid"\}, /m)
    expect(text).not.toContain(SECRET)

    const dir = tempApp({
      'src/app.ts': `import { defineApp, sessionPlugin } from 'vela'
export default defineApp({ bootstrapApplication: 'secrets', plugins: [sessionPlugin({ secret: '${SECRET}', maxAge: 60 })], routes: {} })
`,
    })
    for (const argv of [
      ['config', '--root', dir],
      ['config', '--json', '--root', dir],
    ]) {
      const res = await runMain(argv)
      expect(res).toMatchObject({ code: 0, stderr: '' })
      expect(res.stdout).toContain('[redacted]')
      expect(res.stdout).not.toContain(SECRET)
    }
  })
})
