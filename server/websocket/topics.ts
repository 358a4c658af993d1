/**
 * The WebSocket topics of one app instance. crossws keeps the subscriptions (`peer.subscribe`,
 * `peer.topics`) and delivers to the peers of its adapter; each listener's adapter is given this
 * hub as its crossws `sync` backplane (`relay`), so a publish reaches:
 * - the peers of the listener it was made on (crossws itself: `peer.publish` skips the sender);
 * - the peers of the app's other listeners in this process (the hub hands it to their adapters);
 * - every other instance, through the broker when one is configured (`server.websocket.pubsub`),
 *   which tags it with this instance's id so the echo coming back is ignored.
 * So each subscriber gets a message once, at most: nothing is stored or replayed.
 *
 * `publish` (the app's, a request's) goes to every local adapter and the broker. The broker is
 * `server.websocket.pubsub`, or, in a cluster worker with none configured, the relay through the
 * cluster primary (`fallback`, asked when the hub starts: the process learns its role after the
 * app is made). `app.start()` starts it and waits, bounded, for its subscription (`start`), so an
 * instance that reports ready hears the other instances; otherwise it starts on first use (a
 * listener attaching, a publish, `ready()`). `close()` (the app's stop) closes it. A broker that
 * fails never throws into a handler: its failure is logged once until it works again, and local
 * delivery goes on.
 */
import { randomUUID } from 'node:crypto'
import type { SyncDriver, SyncMessage } from 'crossws'
import type { BrokerContext, TopicBroker, TopicMessage, Topics } from '../contracts/topics.ts'

export type { BrokerContext, Publish, TopicBroker, TopicMessage, Topics } from '../contracts/topics.ts'

type Log = (message: string, error?: unknown) => void
type Deliver = (message: SyncMessage) => void

export interface TopicsOptions {
  /** The relay between instances; without one (and no `fallback`), delivery stays in this process. */
  broker?: TopicBroker
  /** The relay to use when `broker` is unset, asked each time the hub would start until it gives one. */
  fallback?: () => TopicBroker | undefined
  /** The app's name: the broker's default channel is made from it. */
  app?: string
  log?: Log
}

// What crossws and the broker envelope carry: text or bytes. Anything else a JavaScript caller
// passes goes out as JSON, as crossws's own publish does with objects.
const asData = (message: TopicMessage): string | Uint8Array =>
  typeof message === 'string' || message instanceof Uint8Array
    ? message
    : message instanceof ArrayBuffer
      ? new Uint8Array(message)
      : JSON.stringify(message)

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

export function createTopics(opts: TopicsOptions = {}): Topics {
  const log: Log = opts.log ?? ((message, error) => console.error(`[vela] ${message}`, error ?? ''))
  const instanceId = randomUUID()
  const locals = new Set<Deliver>()
  let driver: SyncDriver | undefined
  let subscribed: Promise<void> | undefined
  let closed = false
  // Logged once per streak of failures, again only after a success.
  let publishFailing = false

  const toLocals = (message: SyncMessage, except?: Deliver) => {
    for (const deliver of locals) if (deliver !== except) deliver(message)
  }

  // Whether the broker (or the hub about it) has logged: a bounded start then adds no line of its own.
  let brokerSpoke = false
  const brokerLog: Log = (message, error) => {
    brokerSpoke = true
    log(message, error)
  }

  function start(): SyncDriver | undefined {
    if (closed) return undefined
    if (driver) return driver
    const broker = opts.broker ?? opts.fallback?.()
    if (!broker) return undefined
    const ctx: BrokerContext = { id: instanceId, app: opts.app, log: brokerLog }
    try {
      driver = broker(ctx)
      subscribed = Promise.resolve(driver.subscribe((message) => toLocals(message)))
    } catch (err) {
      subscribed = Promise.reject(err)
    }
    subscribed.catch((err: unknown) => {
      if (!closed) brokerLog('WebSocket topics: the broker could not subscribe; messages stay on this instance', err)
    })
    return driver
  }

  const published = () => void (publishFailing = false)
  const failed = (err: unknown) => {
    if (publishFailing || closed) return
    publishFailing = true
    log('WebSocket topics: the broker failed to publish; messages reach this instance only until it recovers', err)
  }

  function toBroker(message: SyncMessage): void {
    const d = start()
    if (!d) return
    try {
      const out = d.publish(message)
      if (isThenable(out)) out.then(published, failed)
      else published()
    } catch (err) {
      failed(err)
    }
  }

  return {
    instanceId,
    publish(topic, message) {
      const msg: SyncMessage = { namespace: '', topic, data: asData(message) }
      toLocals(msg)
      toBroker(msg)
    },
    ready() {
      start()
      return subscribed ?? Promise.resolve()
    },
    async start(withinMs) {
      start()
      if (!subscribed) return true
      const waiting = subscribed.then(
        () => true,
        () => false,
      )
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, withinMs, 'late')))
      const outcome = await Promise.race([waiting, late])
      clearTimeout(timer)
      if (outcome !== 'late') return outcome
      // Said once: unless the broker already said why (Redis unreachable), and again when it is subscribed.
      if (!brokerSpoke && !closed) {
        log(
          `WebSocket topics: the broker has not subscribed within ${withinMs} ms; starting without it: messages reach this instance only until it does`,
        )
        void waiting.then(
          (ok) => ok && !closed && log('WebSocket topics: the broker is subscribed; messages reach every instance'),
        )
      }
      return false
    },
    // crossws calls it once per listener's adapter, `subscribe` right away with the adapter's
    // local delivery; what its peers publish comes to `publish`, already delivered on the adapter.
    relay: () => {
      let own: Deliver | undefined
      return {
        subscribe(deliver) {
          own = deliver
          if (!closed) locals.add(deliver)
          start()
        },
        publish(message) {
          toLocals(message, own)
          toBroker(message)
        },
        close() {
          if (own) locals.delete(own)
        },
      }
    },
    async close() {
      if (closed) return
      closed = true
      locals.clear()
      try {
        await driver?.close?.()
      } catch (err) {
        log('WebSocket topics: closing the broker failed', err)
      }
    },
  }
}
