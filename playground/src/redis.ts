/**
 * Redis, when REDIS_URL is set (`redis://127.0.0.1:6379`): instances of the playground behind one
 * load balancer then share the login rate limit's counters and the revoked sessions
 * (plugins/pipelines.ts), so a client gets the same limit, and a cookie logged out on one
 * instance is refused by all, whichever instance answers, and the WebSocket rooms' messages (app.ts:
 * `server.websocket.pubsub`). Without it, each process counts on its own, in memory, and rooms
 * reach the clients of this process only (of this machine's workers under `VELA_WORKERS`).
 * The client connects on its first command (`lazyConnect`: loading the app for `vela routes` or a
 * build opens nothing) and is closed by the app's `stop` hook (app.ts). ioredis is loaded only when
 * used: an app without Redis does not need it.
 */
import type { Redis } from 'ioredis'
import { RedisSessionStore, RedisRateLimitStore, redisPubSub } from 'vela'

const url = process.env.REDIS_URL

// One retry per command: a Redis that is down makes a login a 500 quickly, never a hang.
export const redis: Redis | undefined = url
  ? new (await import('ioredis')).Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 })
  : undefined

/** The login limit's store: shared through Redis, or undefined for the plugin's own memory store. */
export const rateLimitStore = redis ? new RedisRateLimitStore({ client: redis, prefix: 'playground:rl:' }) : undefined

/** The sessions' revocations (logouts): shared through Redis, or undefined for the plugin's memory store. */
export const sessionStore = redis ? new RedisSessionStore({ client: redis, prefix: 'playground:session:' }) : undefined

/** The WebSocket topics' relay between instances (app.ts), or undefined to deliver in this process (or this machine's workers) only. */
export const topicsPubSub = url ? redisPubSub({ url }) : undefined
