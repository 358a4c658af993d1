/**
 * The app-wide part of every exchange's life, compiled once at start-up and set on each exchange
 * by the entry point that took it: how the request gets its id (request-id.ts), and what happens
 * to whatever outcome it sends (`finish`): the headers the request added and its id header merged
 * in (reply-headers.ts), then the app's `onResponse` hooks (on-response.ts).
 */
import type { Outcome } from '../respond.ts'
import type { FinishResponse, ResponseDefaults, RoutedFacts } from './on-response.ts'
import { withHeaders } from './reply-headers.ts'
import type { RequestIds } from './request-id.ts'

/** What `finish` reads of the exchange besides its facts. */
export interface Finishing extends RoutedFacts {
  /** Headers added through `setHeader` (lowercase names), if any. */
  readonly addedHeaders: Readonly<Record<string, string>> | undefined
}

export interface Lifecycle {
  readonly ids: RequestIds
  /**
   * The app has no `onResponse` hooks, or only one that sets default headers (`defaults`): for an
   * encoded reply `finish` only merges headers, so the node exchange may merge them itself
   * (reply-headers.ts, `mergedHeaders`) without the steps for a `Response`.
   */
  readonly headersOnly: boolean
  /** The default headers of a reply to this request, when the app's only hook sets defaults (on-response.ts). */
  readonly defaults: ResponseDefaults | undefined
  /** The outcome as it is sent. */
  finish(outcome: Outcome, x: Finishing): Outcome
}

/**
 * The app's lifecycle over its ids and its `onResponse` hooks (undefined when it has none);
 * `defaults`: the hooks as default headers, when they are only that (`responseDefaults`).
 */
export function lifecycle(ids: RequestIds, hooks: FinishResponse | undefined, defaults?: ResponseDefaults): Lifecycle {
  const idHeader = ids.header
  if (hooks === undefined)
    return {
      ids,
      headersOnly: true,
      defaults: undefined,
      finish: (outcome, x) => withHeaders(outcome, x.addedHeaders, idHeader, x),
    }
  return {
    ids,
    headersOnly: defaults !== undefined,
    defaults,
    finish: (outcome, x) => hooks(withHeaders(outcome, x.addedHeaders, idHeader, x), x),
  }
}
