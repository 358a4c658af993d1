// Imports on the import cycles Vela had when the cycle check was added (issue 10), allowed until
// they are removed: scripts/check-cycles.ts fails on any other import on a cycle. Remove a line
// once its import is no longer on a cycle (the check says which); never add one. dbl/ may have
// none (the check ignores dbl/ lines), and telemetry/ has none.
//
// server/: app/config.ts imports every feature's types and they import JsonLib / ResolvedConfig
// back; create-app.ts <-> node-handler.ts. (vite-plugin/'s are gone: app-loader.ts.)

/** An import: the importing module and the imported one, relative to the repo root. */
export type ImportEdge = readonly [from: string, to: string]

export const KNOWN_CYCLE_EDGES: readonly ImportEdge[] = [
  // server/
  ['server/app/config.ts', 'server/app/stream-handlers.ts'],
  ['server/app/config.ts', 'server/compress/compress.ts'],
  ['server/app/config.ts', 'server/pipeline/plugin.ts'],
  ['server/app/config.ts', 'server/router/types.ts'],
  ['server/app/create-app.ts', 'server/app/node-handler.ts'],
  ['server/app/node-handler.ts', 'server/app/create-app.ts'],
  ['server/app/stream-handlers.ts', 'server/app/config.ts'],
  ['server/app/stream-handlers.ts', 'server/websocket/upgrade.ts'],
  ['server/compress/compress.ts', 'server/app/stream-handlers.ts'],
  ['server/errors/error-page.ts', 'server/app/config.ts'],
  ['server/pipeline/failure.ts', 'server/errors/error-page.ts'],
  ['server/pipeline/failure.ts', 'server/respond.ts'],
  ['server/pipeline/failure.ts', 'server/router/compile.ts'],
  ['server/pipeline/plugin.ts', 'server/app/config.ts'],
  ['server/pipeline/plugin.ts', 'server/router/types.ts'],
  ['server/pipeline/run.ts', 'server/pipeline/failure.ts'],
  ['server/pipeline/run.ts', 'server/pipeline/plugin.ts'],
  ['server/pipeline/run.ts', 'server/respond.ts'],
  ['server/pipeline/run.ts', 'server/router/compile.ts'],
  ['server/pipeline/run.ts', 'server/router/types.ts'],
  ['server/respond.ts', 'server/app/config.ts'],
  ['server/router/compile.ts', 'server/app/config.ts'],
  ['server/router/compile.ts', 'server/pipeline/plugin.ts'],
  ['server/router/compile.ts', 'server/router/types.ts'],
  ['server/router/dispatch.ts', 'server/router/compile.ts'],
  ['server/router/types.ts', 'server/pipeline/plugin.ts'],
  ['server/router/types.ts', 'server/websocket/define.ts'],
  ['server/websocket/define.ts', 'server/router/types.ts'],
  ['server/websocket/upgrade.ts', 'server/app/stream-handlers.ts'],
  ['server/websocket/upgrade.ts', 'server/pipeline/run.ts'],
  ['server/websocket/upgrade.ts', 'server/router/compile.ts'],
  ['server/websocket/upgrade.ts', 'server/router/dispatch.ts'],
  ['server/websocket/upgrade.ts', 'server/websocket/define.ts'],
]
