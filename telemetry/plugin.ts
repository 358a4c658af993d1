/**
 * `telemetryPlugin`: a pre-request plugin that tells the active span
 * where the request was routed: it sets `vela.app`, `vela.controller`, `vela.action` and
 * `http.route`, and renames it `<METHOD> <controller>:<action>` (`GET products_controller:show`).
 *
 *   plugins: [telemetryPlugin(), ...]
 *
 * **Not needed with `telemetryStreamHandler`:** that handler names its span the same way from the
 * route the runtime records for every request, in every group (stream-handler.ts), because a
 * group's own `plugins` replaces the global list and would drop a plugin listed only there. The
 * plugin remains for server spans made by something else (OpenTelemetry's HTTP instrumentation)
 * and for code that wants the name on the span while the request runs; with both, the names agree.
 * Requests that match no route never reach plugins; their spans keep the name `HTTP <METHOD>`.
 */
import { trace } from '@opentelemetry/api'
import { ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions'
import { definePlugin, ok } from '../server/pipeline/plugin.ts'
import { activeTelemetry } from './setup.ts'

/**
 * A pre-request plugin naming the active span after the route (`GET products_controller:show`, with
 * `vela.app`, `vela.controller`, `vela.action`, `http.route`): for server spans something other
 * than `telemetryStreamHandler` made, which names its own spans already.
 *
 * @example
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   plugins: [telemetryPlugin()],
 *   routes: [['GET /products/:id', products.show]],
 * })
 */
export const telemetryPlugin = definePlugin<Record<string, never>>({
  name: 'telemetry',
  info: {
    title: 'Telemetry',
    version: '0.1.0',
    author: 'vela',
    description: 'Names the request span after the route: vela.app, vela.controller, vela.action, http.route',
    options: {},
  },
  preRequest(req, ctx) {
    // Telemetry set up with nothing to receive spans registered no tracer: no span to name.
    const t = activeTelemetry()
    if (t !== undefined && t.sampler === undefined) return ok()
    const span = trace.getActiveSpan()
    if (span?.isRecording()) {
      const { controller, action, path } = ctx.route
      span.setAttributes({
        'vela.app': ctx.app,
        'vela.controller': controller,
        'vela.action': action,
        [ATTR_HTTP_ROUTE]: path,
      })
      span.updateName(`${req.method} ${controller}:${action}`)
    }
    return ok()
  },
})
