/** Limits and checks of WebSocket connections: `server.websocket` for every route, `defineWebSocket(hooks, options)` for one. Types only. */
export interface WebSocketLimits {
  /** Largest message accepted, in bytes (default 1 MiB); a larger one closes the connection with 1009 (Message Too Big) before it is read. */
  maxMessageBytes?: number
  /** Most bytes queued for a client that reads slowly (default 4 MiB); a message sent beyond it is dropped and the connection closed with 1013 (Try Again Later). */
  maxBufferedBytes?: number
  /**
   * Most messages a client may send per second, with bursts up to one second's worth (default
   * 100); the message over it closes the connection with 1008 (Policy Violation) and is not
   * handed to the `message` hook. `0` or `Infinity`: no limit.
   */
  maxMessagesPerSecond?: number
  /**
   * Milliseconds a connection may stay silent (default 30000): the server pings every connection
   * that often, and one that has sent nothing (no message, no pong) since the last ping has its
   * socket destroyed (the `close` hook sees 1006). Clients that answer pings (browsers and the
   * usual libraries do) are never closed by it. `0`: no pings, no timeout.
   */
  idleTimeout?: number
  /**
   * Milliseconds a client the server closed (its queue went over `maxBufferedBytes`, or it sent
   * over `maxMessagesPerSecond`) has to read the close frame before its socket is destroyed
   * (default 1000). The frame waits behind what is queued, so a client on a slow link may need more.
   */
  closeTimeout?: number
}

/**
 * Which pages may open a WebSocket route, besides the app's own origin (always allowed): a list of
 * origins (`'https://app.example.com'`, `'http://localhost:5173'`), `'*'` (any page), or a
 * function given the request's `Origin` header.
 */
export type AllowedOrigins = '*' | readonly string[] | ((origin: string) => boolean)

/** A WebSocket route's limits and its `allowedOrigins`. */
export interface WebSocketOptions extends WebSocketLimits {
  /**
   * Origins, besides the request's own, whose pages may open the route (default: none). An
   * upgrade whose `Origin` header names another origin is answered 403 before the route's
   * plugins and security callback run; one without an `Origin` header (not a browser) is let
   * through.
   */
  allowedOrigins?: AllowedOrigins
}
