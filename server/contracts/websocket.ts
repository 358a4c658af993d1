/** Limits of WebSocket connections: `server.websocket` for every route, `defineWebSocket(hooks, limits)` for one. Types only. */
export interface WebSocketLimits {
  /** Largest message accepted, in bytes (default 1 MiB); a larger one closes the connection with 1009 (Message Too Big) before it is read. */
  maxMessageBytes?: number
  /** Most bytes queued for a client that reads slowly (default 4 MiB); a message sent beyond it is dropped and the connection closed with 1013 (Try Again Later). */
  maxBufferedBytes?: number
}
