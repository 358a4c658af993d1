/**
 * The app the WebSocket topic tests run (server/websocket/topics.test.ts, test/cluster/topics.test.ts):
 * - `ws /ws/:room?sub=a,b`: subscribes to the listed topics, then sends `ready`; then takes JSON
 *   commands: `{ sub }` / `{ unsub }` (answered `subscribed x` / `unsubscribed x`), `{ pub, text }`
 *   (`peer.publish`: every subscriber but the sender), `{ pubAll, text }` (`req.publish`: every
 *   subscriber), `{ count }` (how many open peers of this listener are subscribed to it);
 * - `POST /publish/:topic`: publishes the body (`?binary=1`: as bytes) with `req.publish`.
 */
import type { VelaApp } from '../../server/app/create-app.ts'
import { createApp } from '../../server/app/create-app.ts'
import type { TopicBroker } from '../../server/websocket/topics.ts'
import { json } from '../../server/replies.ts'
import { defineWebSocket } from '../../server/websocket/define.ts'
import type { LogFn } from './logs.ts'

type Command =
  | { sub: string }
  | { unsub: string }
  | { pub: string; text: string }
  | { pubAll: string; text: string }
  | { count: string }

const room = defineWebSocket({
  open(peer) {
    for (const topic of String(peer.context.req.query.sub ?? '')
      .split(',')
      .filter(Boolean))
      peer.subscribe(topic)
    peer.send('ready')
  },
  message(peer, message) {
    const cmd = message.json() as Command
    if ('sub' in cmd) {
      peer.subscribe(cmd.sub)
      peer.send(`subscribed ${cmd.sub}`)
    } else if ('unsub' in cmd) {
      peer.unsubscribe(cmd.unsub)
      peer.send(`unsubscribed ${cmd.unsub}`)
    } else if ('pub' in cmd) {
      peer.publish(cmd.pub, cmd.text)
    } else if ('pubAll' in cmd) {
      peer.context.req.publish(cmd.pubAll, cmd.text)
    } else {
      peer.send(String([...peer.peers].filter((p) => p.topics.has(cmd.count)).length))
    }
  },
})

export function topicsApp(opts: { log: LogFn; pubsub?: TopicBroker; name?: string }): VelaApp {
  return createApp(
    {
      bootstrapApplication: opts.name ?? 'topics',
      server: opts.pubsub ? { websocket: { pubsub: opts.pubsub } } : {},
      routes: {
        ws: { prefix: '/ws', security: false, routes: [['/:room', room, { protocol: 'ws' }]] },
        http: {
          prefix: '/publish',
          security: false,
          routes: [
            [
              'POST /:topic',
              async (req) => {
                const body = await req.readBody()
                req.publish(req.bindings.topic!, req.query.binary ? new TextEncoder().encode(body) : body)
                return json({ published: req.bindings.topic })
              },
            ],
          ],
        },
      },
    },
    { env: {}, log: opts.log },
  )
}
