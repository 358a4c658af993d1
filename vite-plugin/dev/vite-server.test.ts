// The plugin under Vite's own server (`vite`, not middleware mode): requests and WebSocket
// upgrades on Vite's port go to the app.
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'
import type { ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import vela, { devAppOf } from '../index.ts'

const root = fileURLToPath(new URL('../test/fixtures/basic', import.meta.url))
let vite: ViteDevServer
let base = ''

beforeAll(async () => {
  vite = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [vela({ dev: { log: () => {} } })],
    server: { port: 0, host: '127.0.0.1' },
  })
  await vite.listen()
  base = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`
})
afterAll(() => vite?.close())

it('answers requests with the app, booted before listening', async () => {
  expect(devAppOf(vite)).toBeDefined()
  const res = await fetch(`${base}/identity`)
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ controller: 'greetings_controller', action: 'identity' })
  expect((await fetch(`${base}/nowhere`)).status).toBe(404)
})

it('hands WebSocket upgrades to the app', async () => {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`)
  const reply = await new Promise<string>((resolve, reject) => {
    ws.once('open', () => ws.send('hi'))
    ws.once('message', (data) => resolve(String(data)))
    ws.once('error', reject)
  })
  ws.close()
  expect(reply).toBe('echo:hi')
})

it("publishes from whichever app is current reach the dev listener's sockets, across a swap", async () => {
  const dev = devAppOf(vite)!
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`)
  const messages: string[] = []
  ws.on('message', (data) => messages.push(String(data)))
  await new Promise((resolve, reject) => {
    ws.once('open', () => ws.send('subscribed?'))
    ws.once('message', resolve)
    ws.once('error', reject)
  })
  const before = dev.current
  await dev.reload()
  expect(dev.current).not.toBe(before)
  const got = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('nothing published reached the socket within 5 s')), 5000)
    ws.once('message', (data) => (clearTimeout(timer), resolve(String(data))))
  })
  dev.current.publish('news', 'from the new app')
  expect(await got).toBe('from the new app')
  expect(messages).toEqual(['echo:subscribed?', 'from the new app'])
  ws.close()
})
