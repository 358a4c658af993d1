/**
 * The rate of messages one WebSocket client may send (`maxMessagesPerSecond`): each message makes
 * the server run the route's `message` hook, and a hook that publishes to a topic makes it send
 * one message per subscriber, so a client sending as fast as its link allows could keep the event
 * loop busy for everyone.
 *
 * A token bucket per connection: it holds up to one second's worth of messages (at least one),
 * refilled continuously at the rate, read and refilled as each message arrives: two numbers per
 * connection and a clock read per message, no timer.
 *
 * **Choice:** the message over the rate is not handed to the hook and the connection is closed
 * with 1008 (Policy Violation), rather than dropping messages and going on: a dropped message the
 * client cannot know about breaks whatever protocol the app speaks, and a client that floods keeps
 * costing a frame parse per message for as long as it stays. A client that does not complete the
 * close has its socket destroyed after a second; what it sends meanwhile is dropped.
 */

export const RATE_CLOSE = { code: 1008, reason: 'Message rate exceeded' } as const

export class MessageRate {
  readonly #perMs: number
  readonly #burst: number
  #tokens: number
  #last = performance.now()

  constructor(perSecond: number) {
    this.#perMs = perSecond / 1000
    this.#burst = Math.max(1, perSecond)
    this.#tokens = this.#burst
  }

  /** A limiter for the route's `maxMessagesPerSecond`; undefined when it sets none (0 or Infinity). */
  static of(perSecond: number): MessageRate | undefined {
    return perSecond > 0 && Number.isFinite(perSecond) ? new MessageRate(perSecond) : undefined
  }

  /** Counts one message: false when it is over the rate. */
  take(): boolean {
    const now = performance.now()
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#last) * this.#perMs)
    this.#last = now
    if (this.#tokens < 1) return false
    this.#tokens -= 1
    return true
  }
}
