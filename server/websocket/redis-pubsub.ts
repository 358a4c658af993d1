/**
 * `redisPubSub({ url })`: WebSocket topics across instances over Redis pub/sub, as a crossws sync
 * adapter (`server.websocket.pubsub`). Each app instance opens two ioredis connections (SUBSCRIBE
 * takes a connection for itself): one subscriber, one publisher, both on one channel per app
 * (`vela:<app>:topics` unless `channel` says otherwise). Messages travel in crossws's envelope
 * (`crossws/sync`: JSON, bytes in base64) tagged with the instance id; an instance drops its own
 * echo, having delivered locally already.
 *
 * Redis being away (at start or later) costs cross-instance delivery only: the first failure is
 * logged once, ioredis reconnects and resubscribes, and a line says when it is back. Meanwhile a
 * publish is not queued (the publisher has no offline queue): at most once, never late. The
 * subscriber waits for Redis as long as it takes. ioredis is an optional peer dependency, loaded
 * on first use.
 */
import type { SyncDriver, SyncMessage } from 'crossws'
import { decodeEnvelope, encodeEnvelope } from 'crossws/sync'
import type { Redis, RedisOptions } from 'ioredis'
import type { BrokerContext } from '../contracts/topics.ts'
import { VelaError } from '../errors/vela-error.ts'

export interface RedisPubSubOptions {
  /** ioredis URL: `redis://[:password@]host:6379[/db]`, `rediss://` for TLS. */
  url: string
  /** The pub/sub channel (default `vela:<bootstrapApplication>:topics`): instances of one app share it. */
  channel?: string
  /** More ioredis options for both connections (retry strategy, TLS, timeouts). */
  redisOptions?: RedisOptions
}

/** host:port of a Redis URL, for logs (never the password). */
function whereOf(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname}:${u.port || 6379}`
  } catch {
    return 'the configured Redis'
  }
}

const readyOf = (client: Redis): Promise<void> =>
  client.status === 'ready' ? Promise.resolve() : new Promise((resolve) => client.once('ready', () => resolve()))

export function redisPubSub(options: RedisPubSubOptions): (ctx: BrokerContext) => SyncDriver {
  if (typeof options?.url !== 'string' || options.url === '') {
    throw new VelaError('VELA_ERR_CONFIG', 'redisPubSub: `url` (a Redis URL such as redis://127.0.0.1:6379) is required')
  }
  if (options.channel !== undefined && (typeof options.channel !== 'string' || options.channel === '')) {
    throw new VelaError('VELA_ERR_CONFIG', `redisPubSub: \`channel\` must be a non-empty string, got ${JSON.stringify(options.channel)}`)
  }
  const where = whereOf(options.url)
  return (ctx) => {
    const log = ctx.log ?? ((message: string) => console.error(`[vela] ${message}`))
    const channel = options.channel ?? `vela:${ctx.app ?? 'app'}:topics`
    let closed = false
    let down = false
    let pub: Redis | undefined
    let sub: Redis | undefined

    // One line per outage, whichever connection notices first; one when both are back.
    const failed = (err: unknown) => {
      if (down || closed) return
      down = true
      const reason = err instanceof Error ? err.message || err.name : String(err)
      log(`WebSocket topics: Redis pub/sub at ${where} unavailable (${reason}); messages reach this instance only until it is back`)
    }
    const recovered = () => {
      if (!down || closed || pub?.status !== 'ready' || sub?.status !== 'ready') return
      down = false
      log(`WebSocket topics: Redis pub/sub at ${where} is back`)
    }

    const connected = import('ioredis').then(
      ({ Redis }) => {
        if (closed) return false
        const base: RedisOptions = { ...options.redisOptions, lazyConnect: false }
        // Publishing while disconnected fails at once rather than queueing stale messages.
        pub = new Redis(options.url, { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 })
        // SUBSCRIBE waits for Redis however long it is away; ioredis resubscribes after a reconnect.
        sub = new Redis(options.url, { ...base, maxRetriesPerRequest: null, autoResubscribe: true })
        for (const client of [pub, sub]) {
          client.on('error', failed)
          client.on('ready', recovered)
        }
        return true
      },
      (err: unknown) => {
        log('WebSocket topics: redisPubSub needs the ioredis package (npm install ioredis); messages stay on this instance', err)
        return false
      },
    )

    return {
      async subscribe(deliver) {
        if (!(await connected) || !sub || !pub) return
        sub.on('message', (from: string, raw: string) => {
          if (from !== channel) return
          const envelope = decodeEnvelope(raw)
          if (envelope && envelope.id !== ctx.id) deliver(envelope.msg)
        })
        try {
          await sub.subscribe(channel)
          await readyOf(pub)
        } catch (err) {
          // Closing while waiting for Redis rejects the pending SUBSCRIBE: not a failure.
          if (!closed) throw err
        }
      },
      publish(message: SyncMessage) {
        if (closed || pub?.status !== 'ready') return
        pub.publish(channel, encodeEnvelope(ctx.id, message)).then(recovered, failed)
      },
      async close() {
        closed = true
        await connected
        await Promise.all(
          [pub, sub].map(async (client) => {
            if (!client) return
            if (client.status !== 'ready') return client.disconnect()
            await client.quit().catch(() => client.disconnect())
          }),
        )
      },
    }
  }
}
