// The documentation site (VitePress): `npm run docs:dev`, `npm run docs:build` (into
// docs/.vitepress/dist). The sidebar is the one list below: add a page by adding its link to the
// section it belongs to. Pages under docs/reference/ are generated from the package's entry points
// by scripts/docs-reference.ts, which both scripts run first.
import { defineConfig } from 'vitepress'

/** One sidebar section: a title and its pages (links without `.md`, from docs/). */
interface Section {
  text: string
  items: { text: string; link: string }[]
}

const SIDEBAR: Section[] = [
  {
    text: 'Introduction',
    items: [
      { text: 'What Vela is', link: '/' },
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Beside Hono and Fastify', link: '/comparison' },
      { text: 'Upgrading from 0.1', link: '/upgrading' },
    ],
  },
  {
    text: 'Guide',
    items: [
      { text: 'Routes and groups', link: '/guide/routes' },
      { text: 'Replies', link: '/guide/replies' },
      { text: 'Requests', link: '/guide/requests' },
      { text: 'Configuration', link: '/guide/configuration' },
      { text: 'Security', link: '/guide/security' },
      { text: 'Plugins', link: '/guide/plugins' },
      { text: 'Views and static files', link: '/guide/views' },
      { text: 'WebSockets and topics', link: '/guide/websockets' },
      { text: 'The database layer', link: '/guide/database' },
      { text: 'Migrations', link: '/guide/migrations' },
      { text: 'Telemetry', link: '/guide/telemetry' },
      { text: 'Validation', link: '/validation' },
      { text: 'OpenAPI and the CLI', link: '/guide/cli' },
      { text: 'The OpenAPI document', link: '/openapi' },
      { text: 'Shapes and the typed client', link: '/typed-client' },
      { text: 'The Vite plugin', link: '/guide/vite' },
      { text: 'The development dashboard', link: '/dashboard' },
      { text: 'Testing', link: '/guide/testing' },
      { text: 'Deployment and scaling', link: '/guide/deployment' },
      { text: 'The playground', link: '/guide/playground' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'vela', link: '/reference/vela' },
      { text: 'vela/vite', link: '/reference/vite' },
      { text: 'vela/dbl', link: '/reference/dbl' },
      { text: 'vela/telemetry', link: '/reference/telemetry' },
      { text: 'vela/testing', link: '/reference/testing' },
      { text: 'vela/client', link: '/reference/client' },
      { text: 'The vela command', link: '/reference/cli' },
    ],
  },
  {
    text: 'Internals',
    items: [
      { text: 'The request path', link: '/request-path' },
      { text: 'Deadlines and failed bodies', link: '/request-faults' },
      { text: 'Security', link: '/security' },
      { text: 'Shutdown and readiness', link: '/shutdown' },
      { text: 'Every core (VELA_WORKERS)', link: '/cluster' },
      { text: 'WebSocket limits', link: '/websocket-limits' },
      { text: 'WebSocket topics', link: '/websocket-topics' },
      { text: 'Queries over several tables', link: '/dbl-queries' },
      { text: 'Associations', link: '/dbl-associations' },
      { text: 'Changesets', link: '/dbl-changesets' },
      { text: 'Database deadlines', link: '/database-deadlines' },
      { text: 'Telemetry: the SDK', link: '/telemetry-sdk' },
      { text: 'Telemetry: traces', link: '/telemetry-traces' },
      { text: 'Telemetry: metrics', link: '/telemetry-metrics' },
      { text: 'The Vite side', link: '/vite-plugin' },
      { text: 'What npm test checks', link: '/testing' },
      { text: 'Fault suite and soak', link: '/fault-suite' },
    ],
  },
  {
    text: 'Project',
    items: [{ text: 'Benchmarks', link: '/benchmarks' }],
  },
]

export default defineConfig({
  title: 'Vela',
  description: 'A TypeScript web framework delivered as a Vite plugin.',
  // Pages write placeholders such as `<pid>` in plain text: raw HTML is off, so they show as written.
  markdown: { html: false },
  // Links to a local server (http://localhost:8080 in the guide) are addresses to visit, not pages.
  ignoreDeadLinks: 'localhostLinks',
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'Reference', link: '/reference/vela' },
      { text: 'Internals', link: '/request-path' },
      { text: 'Benchmarks', link: '/benchmarks' },
    ],
    sidebar: SIDEBAR,
    outline: { level: [2, 3] },
    search: { provider: 'local' },
  },
})
