/**
 * Graceful shutdown on SIGTERM and SIGINT (what orchestrators and Ctrl-C send), losing no request
 * a client has sent (the listener's close, listen.ts and drain.ts):
 *
 *   1. the app's readiness endpoint answers 503 `draining` (a load balancer takes it out);
 *   2. after `drainDelayMs` (default `server.drainDelay`, 0) stop accepting connections (the
 *      listening socket closes: new clients are refused);
 *   3. close open WebSockets with 1001 Going Away;
 *   4. answer the requests already sent with `Connection: close`, and those still arriving on
 *      idle keep-alive connections, which close once answered or at their keep-alive timeout
 *      (`idle: 'wait'`); after `timeoutMs` (default `server.shutdownTimeout`, 10 s) drop what is left;
 *   5. run the app's stop hook (`app.stop()`: close pools, flush telemetry);
 *   6. exit 0 (1 if closing or the stop hook failed, or the whole thing overran its deadline).
 *
 * A second signal while shutting down exits at once with 1 (the impatient Ctrl-C Ctrl-C).
 */
import type { ResolvedConfig } from '../contracts/config.ts'
import type { IdleConnections } from './drain.ts'
import type { Listener } from './listen.ts'

/** Options of `installShutdown`: its deadlines, signals, exit function and log. */
export interface ShutdownOptions {
  /** How long requests already sent may take to be answered (default `server.shutdownTimeout`, else 10000 ms). */
  timeoutMs?: number
  /** How long readiness says `draining` before the listening socket closes (default `server.drainDelay`, else 0). */
  drainDelayMs?: number
  /** Idle keep-alive connections: `'wait'` (default, loses nothing) or `'close'` at once (the dev server's fast Ctrl-C). */
  idle?: IdleConnections
  /** How long the app's stop hook may take on top of that (default 10000 ms). */
  stopTimeoutMs?: number
  /** Default `['SIGTERM', 'SIGINT']`. */
  signals?: readonly NodeJS.Signals[]
  /** Default `process.exit`; tests pass their own. */
  exit?: (code: number) => void
  /** Where the shutdown's lines go (default: stdout, errors to stderr). */
  log?: (message: string, error?: unknown) => void
}

/** What `installShutdown` returns: run the shutdown now, or remove the signal handlers. */
export interface ShutdownHandle {
  /** Runs the shutdown now (as a signal would); resolves when the exit function was called. */
  shutdown(reason?: string): Promise<void>
  /** Removes the signal handlers. */
  uninstall(): void
}

/**
 * Shuts the app down gracefully on SIGTERM and SIGINT, losing no request a client has sent.
 *
 * Readiness turns `draining`, the listener stops accepting, WebSockets close with 1001, requests
 * already sent are answered, then the app's stop hook runs and the process exits (0, or 1 on a
 * failure or an overrun deadline). A second signal exits at once.
 *
 * @example
 * ```ts
 * import { createApp, installShutdown, listen } from 'vela'
 * import config from './app.ts'
 *
 * const app = createApp(config)
 * const listener = await listen(app)
 * await app.start()
 * installShutdown(listener, app, { timeoutMs: 15_000, drainDelayMs: 5_000 })
 * ```
 */
export function installShutdown(
  listener: Pick<Listener, 'close'>,
  app: { stop(): Promise<void>; readonly config?: ResolvedConfig },
  opts: ShutdownOptions = {},
): ShutdownHandle {
  const server = app.config?.server
  const {
    timeoutMs = server?.shutdownTimeout ?? 10_000,
    drainDelayMs = server?.drainDelay ?? 0,
    idle = 'wait',
    stopTimeoutMs = 10_000,
    signals = ['SIGTERM', 'SIGINT'],
  } = opts
  const exit = opts.exit ?? ((code: number) => process.exit(code))
  const log =
    opts.log ??
    ((message: string, error?: unknown) => (error === undefined ? console.log(message) : console.error(message, error)))
  let running: Promise<void> | undefined

  async function run(reason: string): Promise<void> {
    // Whatever hangs (a stop hook waiting on a dead database), the process still ends.
    const deadline = setTimeout(
      () => {
        log('[vela] shutdown overran its deadline; exiting')
        exit(1)
      },
      drainDelayMs + timeoutMs + stopTimeoutMs + 1000,
    )
    deadline.unref()
    let code = 0
    // Without a delay close() stops the listening socket synchronously, so once this line is
    // logged new connections are refused.
    const closing = listener.close({ timeoutMs, drainDelayMs, idle })
    const accepting =
      drainDelayMs > 0
        ? `readiness reports draining, accepting connections for ${drainDelayMs} ms more`
        : 'stopped accepting connections'
    log(`[vela] ${reason}: shutting down; ${accepting}, requests already sent have ${timeoutMs} ms`)
    try {
      await closing
    } catch (err) {
      log('[vela] closing the listener failed', err)
      code = 1
    }
    try {
      await app.stop()
    } catch (err) {
      log('[vela] the stop hook failed', err)
      code = 1
    }
    clearTimeout(deadline)
    uninstall()
    log(`[vela] shutdown complete`)
    exit(code)
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      log(`[vela] ${signal} again: exiting now`)
      exit(1)
      return
    }
    running = run(signal)
  }
  const uninstall = () => {
    for (const s of signals) process.off(s, onSignal)
  }
  for (const s of signals) process.on(s, onSignal)

  return {
    shutdown: (reason = 'shutdown requested') => (running ??= run(reason)),
    uninstall,
  }
}
