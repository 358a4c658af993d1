import { request } from 'node:http'
import { createTestApp } from 'vela/testing'
import { afterAll, expect, it } from 'vitest'
import { connect } from './socket.ts'

// The app from src/ under the `test` environment (its own in-memory database), on a real socket:
// WebSockets need one.
const t = await createTestApp()
afterAll(() => t.close())
const server = await t.listen()
const ws = (path: string) => connect(server.url.replace(/^http/, 'ws') + path)

it('joins a room: the history, then everyone in the room gets each message, kept in the database', async () => {
  const ada = await ws('/ws/rooms/lobby?name=Ada')
  expect(await ada.next()).toEqual({ type: 'history', messages: [] })
  const bob = await ws('/ws/rooms/lobby?name=Bob')
  expect(await bob.next()).toEqual({ type: 'history', messages: [] })
  expect(await ada.next()).toEqual({ type: 'joined', name: 'Bob' })

  bob.send({ body: 'Hello, Ada' })
  const expected = {
    type: 'message',
    message: expect.objectContaining({ room: 'lobby', author: 'Bob', body: 'Hello, Ada' }),
  }
  expect(await ada.next()).toEqual(expected)
  // The sender gets its own message back too, with the id and time it was kept under.
  const own = await bob.next()
  expect(own).toEqual(expected)

  const listed = await (await server.request('/api/rooms/lobby/messages')).json()
  expect(listed.messages).toEqual([own.message])

  await bob.close()
  expect(await ada.next()).toEqual({ type: 'left', name: 'Bob' })
  await ada.close()
})

it('someone joining later gets the recent messages; another room hears nothing of them', async () => {
  const other = await ws('/ws/rooms/kitchen?name=Cy')
  expect(await other.next()).toEqual({ type: 'history', messages: [] })
  const late = await ws('/ws/rooms/lobby?name=Dee')
  const history = await late.next()
  expect(history.type).toBe('history')
  expect(history.messages).toEqual([expect.objectContaining({ author: 'Bob', body: 'Hello, Ada' })])

  late.send({ body: 'Anyone here?' })
  expect(await late.next()).toMatchObject({ type: 'message', message: { body: 'Anyone here?' } })
  other.send({ body: 'Only the kitchen' })
  // The kitchen's first frame is its own message: nothing from the lobby came before it.
  expect(await other.next()).toMatchObject({ type: 'message', message: { room: 'kitchen', body: 'Only the kitchen' } })
  await Promise.all([late.close(), other.close()])
})

it('a message the changeset refuses goes back to its sender alone, as an error', async () => {
  const ada = await ws('/ws/rooms/errors?name=Ada')
  const bob = await ws('/ws/rooms/errors?name=Bob')
  await ada.next() // history
  await bob.next() // history
  expect(await ada.next()).toEqual({ type: 'joined', name: 'Bob' })
  bob.send({ body: '' })
  expect(await bob.next()).toEqual({ type: 'error', errors: { body: ["can't be blank"] } })
  bob.send({ body: 'x'.repeat(1001) })
  expect(await bob.next()).toEqual({ type: 'error', errors: { body: ['should be at most 1000 character(s)'] } })
  bob.send({ body: 'fine' })
  // Ada's next frame is the valid message: the refused ones never reached her.
  expect(await ada.next()).toMatchObject({ type: 'message', message: { body: 'fine' } })
  await Promise.all([ada.close(), bob.close()])
})

it('a message posted over HTTP reaches the sockets of its room', async () => {
  const ada = await ws('/ws/rooms/deploys?name=Ada')
  await ada.next() // history
  const res = await server.request({
    method: 'POST',
    url: '/api/rooms/deploys/messages',
    body: { author: 'deploy-bot', body: 'Version 2 is live' },
  })
  expect(res.status).toBe(201)
  const message = await res.json()
  expect(await ada.next()).toEqual({ type: 'message', message })
  await ada.close()
})

/** The HTTP status an upgrade request to `path` gets instead of a socket. */
function upgradeRefusal(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(server.url + path, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    })
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('upgrade', (_res, socket) => {
      socket.destroy()
      reject(new Error(`${path} was upgraded`))
    })
    req.on('error', reject)
    req.end()
  })
}

it('refuses to open a socket without a name, for a bad room name, or from another site', async () => {
  expect(await upgradeRefusal('/ws/rooms/lobby')).toBe(400)
  expect(await upgradeRefusal('/ws/rooms/Not%20A%20Room?name=Ada')).toBe(400)
  expect(await upgradeRefusal('/ws/rooms/lobby?name=Ada', { origin: 'https://elsewhere.example' })).toBe(403)
})

it('serves the page, its script and stylesheet under the Content-Security-Policy', async () => {
  const page = await server.request('/')
  expect(page.status).toBe(200)
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
  const html = await page.text()
  expect(html).toContain('<script type="module" src="/static/chat.js"></script>')
  expect(html).not.toMatch(/<style|<script>|style=/)
  const script = await server.request('/static/chat.js')
  expect(script.status).toBe(200)
  expect(script.headers.get('content-type')).toMatch(/javascript/)
})
