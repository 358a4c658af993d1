/**
 * Checks of the server config as written, run by `resolveConfig`, so by `createApp` before any
 * start hook runs or any port is opened: a port, limit or timeout node would refuse at listen (or
 * that makes no sense) is a `VelaError` naming the key and the value it got, instead of a crash
 * after the start hook has run migrations.
 *
 * Timeouts must agree the way node requires: `headersTimeout <= requestTimeout` when the request
 * timeout is on. Only values both written can contradict each other: `resolveConfig` adapts the
 * default of the one left out (node does the same for its own defaults).
 */
import type { ServerConfig } from '../contracts/config.ts'
import { VelaError } from '../errors/vela-error.ts'
import {
  BYTES,
  COUNT,
  MILLISECONDS,
  PORT,
  checkNumber,
  checkObject,
  checkWebSocketLimits,
  shown,
} from './check-values.ts'

export function checkServerConfig(server: ServerConfig | undefined): void {
  const code = 'VELA_ERR_CONFIG'
  checkObject(code, 'server', server)
  if (!server) return
  checkNumber(code, 'server.port', server.port, PORT)
  if (server.host !== undefined && typeof server.host !== 'string')
    throw new VelaError(code, `server.host must be a string, got ${shown(server.host)}`)
  checkNumber(code, 'server.bodyLimit', server.bodyLimit, BYTES)
  checkNumber(code, 'server.maxUrlLength', server.maxUrlLength, BYTES)
  checkNumber(code, 'server.maxFields', server.maxFields, COUNT)
  checkNumber(code, 'server.keepAliveTimeout', server.keepAliveTimeout, MILLISECONDS)
  checkNumber(code, 'server.headersTimeout', server.headersTimeout, MILLISECONDS)
  checkNumber(code, 'server.requestTimeout', server.requestTimeout, MILLISECONDS)
  checkNumber(code, 'server.handlerTimeout', server.handlerTimeout, MILLISECONDS)
  checkNumber(code, 'server.sendTimeout', server.sendTimeout, MILLISECONDS)
  checkNumber(code, 'server.drainDelay', server.drainDelay, MILLISECONDS)
  checkNumber(code, 'server.shutdownTimeout', server.shutdownTimeout, MILLISECONDS)
  checkWebSocketLimits(code, 'server.websocket', server.websocket)
  const pubsub = server.websocket?.pubsub
  if (pubsub !== undefined && typeof pubsub !== 'function') {
    throw new VelaError(
      code,
      `server.websocket.pubsub must be a pub/sub adapter such as redisPubSub({ url }), got ${shown(pubsub)}`,
    )
  }
  const { headersTimeout, requestTimeout } = server
  if (
    headersTimeout !== undefined &&
    requestTimeout !== undefined &&
    requestTimeout > 0 &&
    headersTimeout > requestTimeout
  ) {
    throw new VelaError(
      code,
      `server.headersTimeout (${headersTimeout}) must not exceed server.requestTimeout (${requestTimeout}): the headers are part of the request; lower headersTimeout or raise requestTimeout`,
    )
  }
}
