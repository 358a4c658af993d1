// Pages that moved, old path → new path (from docs/, without `.md`). One map serves both ways an old
// address keeps working: the build writes a redirect page at each old URL (redirects.ts), and a link
// in the markdown that still names an old path is pointed at the new page before VitePress checks it.
// When a page moves again, change its target here and add its last path as a key.

/** Old page → the page its content is on now. */
export const MOVED: Readonly<Record<string, string>> = {
  // Essentials
  'guide/routes': 'essentials/routes',
  'guide/replies': 'essentials/replies',
  'guide/requests': 'essentials/requests',
  'guide/configuration': 'essentials/configuration',
  validation: 'essentials/validation',
  'guide/testing': 'essentials/testing',
  // Database
  'guide/database': 'database/overview',
  'guide/migrations': 'database/migrations',
  'dbl-queries': 'database/queries',
  'dbl-associations': 'database/associations',
  'dbl-changesets': 'database/changesets',
  // HTTP: both Security pages' user content is on one page now; the rest is internals/security.
  'guide/security': 'http/security',
  security: 'http/security',
  'guide/plugins': 'http/plugins',
  'guide/views': 'http/views',
  openapi: 'http/openapi',
  'typed-client': 'http/typed-client',
  // Real time
  'guide/websockets': 'real-time/websockets',
  // Telemetry
  'guide/telemetry': 'telemetry/overview',
  'telemetry-sdk': 'telemetry/sdk',
  'telemetry-traces': 'telemetry/traces',
  'telemetry-metrics': 'telemetry/metrics',
  // Tooling
  'guide/cli': 'tooling/cli',
  'guide/vite': 'tooling/vite',
  dashboard: 'tooling/dashboard',
  // Deploy
  'guide/deployment': 'deploy/deployment',
  // Internals
  'request-path': 'internals/request-path',
  'request-faults': 'internals/request-faults',
  shutdown: 'internals/shutdown',
  cluster: 'internals/cluster',
  'websocket-limits': 'internals/websocket-limits',
  'websocket-topics': 'internals/websocket-topics',
  'database-deadlines': 'internals/database-deadlines',
  'vite-plugin': 'internals/vite-plugin',
  // Project
  benchmarks: 'project/benchmarks',
  testing: 'project/npm-test',
  'fault-suite': 'project/fault-suite',
  upgrading: 'project/upgrading',
  'guide/playground': 'project/playground',
}
