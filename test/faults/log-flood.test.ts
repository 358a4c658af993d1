/**
 * Log floods: every failed request used to write its own line, so a client could write thousands of
 * lines a second, and vary the path to make each one different. The app's default log (to stderr)
 * now writes the first line of a kind (status, route pattern, error kind) with its stack, counts
 * the rest for 10 s and then writes one summary line. Requests go through `app.fetch` in-process,
 * with node's timers faked so the window closes on demand.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createApp, json } from '../../server/index.ts'
import type { VelaApp } from '../../server/index.ts'

let printed: string[]
let app: VelaApp

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  printed = []
  vi.spyOn(console, 'error').mockImplementation(
    (...args: unknown[]) => void printed.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ')),
  )
  app = createApp(
    {
      bootstrapApplication: 'log-flood',
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [
            [
              'GET /notes/:id',
              () => {
                throw new TypeError('notes exploded')
              },
            ],
            [
              'GET /other',
              () => {
                throw new RangeError('other exploded')
              },
            ],
            ['GET /fine', () => json({ ok: true })],
          ],
        },
      },
    },
    { env: {} },
  )
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const get = (path: string) => app.fetch(new Request(`http://localhost${path}`))

it('600 failing requests on varied paths of one route write one line with the stack, then one summary when the 10 s window closes', async () => {
  for (let i = 0; i < 600; i++) expect((await get(`/notes/${i}?x=${i}`)).status).toBe(500)
  expect(printed).toHaveLength(1)
  expect(printed[0]).toMatch(
    /^\[vela\] 500 on GET \/notes\/0 \(routes\/r\.anonymous\) request_id=\S+: TypeError: notes exploded\n\s+at /,
  )
  vi.advanceTimersByTime(10_000)
  expect(printed.slice(1)).toEqual([
    '[vela] 500 on GET /notes/0 (routes/r.anonymous) … and 599 more like this in the last 10 s',
  ])
  // The next window starts afresh with a full line.
  await get('/notes/x')
  expect(printed).toHaveLength(3)
  expect(printed[2]).toMatch(/^\[vela\] 500 on GET \/notes\/x .*TypeError: notes exploded/)
})

it('another route or status is another kind, written at once; the counts still open are written when the app stops', async () => {
  await get('/notes/1')
  await get('/other')
  await get('/notes/2')
  await get('/nowhere') // a 404 logs nothing
  expect(printed.map((p) => p.split('\n')[0])).toEqual([
    expect.stringMatching(
      /^\[vela\] 500 on GET \/notes\/1 \(routes\/r\.anonymous\) request_id=\S+: TypeError: notes exploded$/,
    ),
    expect.stringMatching(
      /^\[vela\] 500 on GET \/other \(routes\/r\.anonymous\) request_id=\S+: RangeError: other exploded$/,
    ),
  ])
  await app.stop()
  expect(printed.slice(2)).toEqual([
    '[vela] 500 on GET /notes/1 (routes/r.anonymous) … and 1 more like this in the last 10 s',
  ])
})
