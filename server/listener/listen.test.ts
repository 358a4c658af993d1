// The production listener: keep-alive, a clean close that lets in-flight requests finish, and
// failures inside one request that never take the server down.
import http from 'node:http'
import { expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import { json, status } from '../replies.ts'
import { startTestServer } from '../testing/index.ts'
import { strictLog } from '../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

let slowArrived = 0
const app = createApp(
  {
    bootstrapApplication: 'listen',
    server: { keepAliveTimeout: 2000 },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['GET /heartbeat', () => status(200)],
          [
            'GET /slow',
            async () => (slowArrived++, await new Promise((r) => setTimeout(r, 300)), json({ slow: true })),
          ],
          [
            'GET /crash',
            () => {
              throw new TypeError('cannot read properties of undefined')
            },
          ],
          [
            'GET /floating',
            () => {
              // A promise nobody awaits rejects after the reply: must not kill the process.
              void Promise.reject(new Error('forgotten promise'))
              return status(202)
            },
          ],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

function get(
  agent: http.Agent,
  port: number,
  path: string,
): Promise<{ status: number; socket: unknown; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode!, socket: req.socket, headers: res.headers }))
    })
    req.on('error', reject)
  })
}

it('keeps connections alive between requests, with the configured keep-alive timeout', async () => {
  const server = await startTestServer(app)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const a = await get(agent, server.port, '/heartbeat')
  const b = await get(agent, server.port, '/heartbeat')
  expect(a.status).toBe(200)
  expect(b.socket).toBe(a.socket)
  expect(a.headers['keep-alive']).toBe('timeout=2')
  agent.destroy()
  await server.close()
})

it('close(): in-flight requests finish, then new connections are refused', async () => {
  const server = await startTestServer(app)
  const inFlight = Promise.all([1, 2, 3].map(() => server.request('/slow')))
  // Close once all three are inside their handler (not after a guessed delay).
  while (slowArrived < 3) await new Promise((r) => setTimeout(r, 5))
  const closing = server.close({ timeoutMs: 5000 })
  const responses = await inFlight
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200])
  await closing
  await expect(fetch(`${server.url}/heartbeat`)).rejects.toThrow()
})

it('a throwing handler or a forgotten rejected promise never takes the server down', async () => {
  const server = await startTestServer(app)
  logs.expectLogged(/^500 on GET \/crash .*: TypeError: cannot read properties of undefined$/)
  expect((await server.request('/crash')).status).toBe(500)
  expect((await server.request('/floating')).status).toBe(202)
  await new Promise((r) => setTimeout(r, 20))
  expect((await server.request('/heartbeat')).status).toBe(200)
  await server.close()
})
