/**
 * WebSocket topics as the rest of the tree names them: what a message is, the `publish` function
 * apps, requests and hooks get, an app's topics, and the broker that relays topics between
 * instances (server/websocket/topics.ts, redis-pubsub.ts). Types only.
 */
import type { SyncAdapter } from 'crossws'

/** A topic message: text goes out as a text frame, bytes as a binary frame. */
export type TopicMessage = string | Uint8Array | ArrayBuffer

/**
 * Sends `message` to every WebSocket subscribed to `topic` (`peer.subscribe(topic)`): on this
 * instance, and on every other one when a broker is configured. Never throws; at most once.
 */
export type Publish = (topic: string, message: TopicMessage) => void

/** What a broker is given besides crossws's instance `id`: the app, to name its channel, and the app's log. */
export interface BrokerContext {
  readonly id: string
  readonly app?: string
  readonly log?: (message: string, error?: unknown) => void
}

/**
 * A relay between instances (`server.websocket.pubsub`): a crossws sync adapter, such as Vela's
 * `redisPubSub({ url })` or one of `crossws/sync`'s. The app calls it once, with a
 * `BrokerContext` (crossws's own adapters read only its `id`).
 */
export type TopicBroker = SyncAdapter

/** An app's WebSocket topics (`app.topics`): publishing, and the relay its listeners and broker share. */
export interface Topics {
  /** This instance's id, the tag on what it sends through the broker. */
  readonly instanceId: string
  /** Sends `message` to every subscriber of `topic`, here and (with a broker) on every instance. Never throws. */
  publish(topic: string, message: TopicMessage): void
  /**
   * Resolves once the broker is subscribed and can publish (at once without one): a message
   * published before that reaches this instance's subscribers only. Never resolves while the
   * broker is unreachable; rejects if it refused to subscribe.
   */
  ready(): Promise<void>
  /**
   * Starts the broker and waits at most `withinMs` for its subscription (what `app.start()` does
   * before the app reports ready): true once subscribed (at once without a broker), false if it
   * refused or is still away after `withinMs` (then it goes on trying; one line is logged unless
   * the broker already said why, and one when it is subscribed). Never rejects.
   */
  start(withinMs: number): Promise<boolean>
  /** The crossws sync adapter a listener gives its node adapter (server/listener/websockets.ts). */
  readonly relay: SyncAdapter
  /** Closes the broker; local adapters stop hearing from it. */
  close(): Promise<void>
}
