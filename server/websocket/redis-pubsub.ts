/**
 * `redisPubSub({ url })`: WebSocket topics across instances over Redis pub/sub, as a crossws sync
 * adapter (`server.websocket.pubsub`). Each app instance opens two ioredis connections (SUBSCRIBE
 * takes a connection for itself): one subscriber, one publisher, both on one channel per app
 * (`vela:<app>:topics` unless `channel` says otherwise). Messages travel in crossws's envelope
 * (`crossws/sync`: JSON, bytes in base64) tagged with the instance id; an instance drops its own
 * echo, having delivered locally already.
 *
 * Redis being away (at start or later) costs cross-instance delivery only: the first failure is
 * logged once, ioredis reconnects (its retry strategy), the subscriber subscribes again, and a line
 * says when it is back. Meanwhile a publish is not queued (the publisher has no offline queue): at
 * most once, never late. ioredis is an optional peer dependency, loaded on first use.
 */
import type { SyncDriver, SyncMessage } from 'crossws'
import { decodeEnvelope, encodeEnvelope } from 'crossws/sync'
import type { Redis, RedisOptions } from 'ioredis'
import type { BrokerContext } from '../contracts/topics.ts'
import { VelaError } from '../errors/vela-error.ts'

/** Options of `redisPubSub`: the Redis URL, the channel and more ioredis options. */
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

// Log lines stay one line: the reason, not a stack.
const reasonOf = (err: unknown) => (err instanceof Error ? err.message || err.name : String(err))

/**
 * Relays WebSocket topic messages between the app's instances over Redis pub/sub.
 *
 * Set as `server.websocket.pubsub`, `peer.publish` / `app.publish` reach subscribers on every
 * instance. Redis being away costs cross-instance delivery only (at most once, never late).
 *
 * @example
 * ```ts
 * import { defineApp, redisPubSub } from 'vela'
 *
 * export default defineApp({
 *   bootstrapApplication: 'chat',
 *   server: { websocket: { pubsub: redisPubSub({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) } },
 * })
 * ```
 */
export function redisPubSub(options: RedisPubSubOptions): (ctx: BrokerContext) => SyncDriver {
  if (typeof options?.url !== 'string' || options.url === '') {
    throw new VelaError(
      'VELA_ERR_CONFIG',
      'redisPubSub: `url` (a Redis URL such as redis://127.0.0.1:6379) is required',
    )
  }
  if (options.channel !== undefined && (typeof options.channel !== 'string' || options.channel === '')) {
    throw new VelaError(
      'VELA_ERR_CONFIG',
      `redisPubSub: \`channel\` must be a non-empty string, got ${JSON.stringify(options.channel)}`,
    )
  }
  const where = whereOf(options.url)
  const broker = (ctx: BrokerContext): SyncDriver => {
    const log = ctx.log ?? ((message: string) => console.error(`[vela] ${message}`))
    const channel = options.channel ?? `vela:${ctx.app ?? 'app'}:topics`
    let closed = false
    let down = false
    // The subscriber's SUBSCRIBE was answered on its current connection: messages flow.
    let listening = false
    let deliver: ((message: SyncMessage) => void) | undefined
    let pub: Redis | undefined
    let sub: Redis | undefined
    let firstListening!: () => void
    const listened = new Promise<void>((resolve) => (firstListening = resolve))

    // One line per outage, whichever connection notices first; one when both are back.
    const failed = (err: unknown) => {
      if (down || closed) return
      down = true
      log(
        `WebSocket topics: Redis pub/sub at ${where} unavailable (${reasonOf(err)}); messages reach this instance only until it is back`,
      )
    }
    const recovered = () => {
      if (!listening || pub?.status !== 'ready') return
      firstListening()
      if (!down || closed) return
      down = false
      log(`WebSocket topics: Redis pub/sub at ${where} is back`)
    }
    // SUBSCRIBE again after every (re)connection, rather than ioredis's automatic resubscription:
    // its answer, not the connection, says that messages flow again.
    const listen = () => void sub?.subscribe(channel).then(() => ((listening = true), recovered()), failed)

    const connected = import('ioredis').then(
      ({ Redis }) => {
        if (closed) return false
        const base: RedisOptions = { ...options.redisOptions, lazyConnect: false }
        // Publishing while disconnected fails at once rather than queueing stale messages.
        pub = new Redis(options.url, { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 })
        sub = new Redis(options.url, { ...base, autoResubscribe: false })
        pub.on('error', failed).on('ready', recovered)
        sub
          .on('error', failed)
          .on('ready', listen)
          .on('close', () => (listening = false))
        sub.on('message', (from: string, raw: string) => {
          if (from !== channel) return
          const envelope = decodeEnvelope(raw)
          if (envelope && envelope.id !== ctx.id) deliver?.(envelope.msg)
        })
        return true
      },
      (err: unknown) => {
        log(
          `WebSocket topics: redisPubSub needs the ioredis package (npm install ioredis; ${reasonOf(err)}); messages stay on this instance`,
        )
        return false
      },
    )

    return {
      // Resolves once subscribed with the publisher connected, however long Redis is away.
      async subscribe(onMessage) {
        deliver = onMessage
        if (await connected) await listened
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
  // What `vela config` shows: where, never the password.
  return Object.defineProperty(broker, 'name', { value: `redisPubSub(${where})` })
}
