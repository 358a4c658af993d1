// The documentation site (VitePress): `npm run docs:dev`, `npm run docs:build` (into
// docs/.vitepress/dist). The sidebar is the one list below, a section per folder of docs/: add a
// page by putting it in its section's folder and its link in the section. Pages under
// docs/reference/ are generated from the package's entry points by scripts/docs-reference.ts, which
// both scripts run first. A page that moves keeps its old address through moved.ts.
import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitepress'
import { pointMovedLinks, writeRedirects } from './redirects.ts'

/** One sidebar section: a title and its pages (links without `.md`, from docs/). */
interface Section {
  text: string
  collapsed?: boolean
  items: { text: string; link: string }[]
}

const SIDEBAR: Section[] = [
  {
    text: 'Introduction',
    items: [
      { text: 'What Vela is', link: '/' },
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Beside Hono and Fastify', link: '/comparison' },
    ],
  },
  {
    text: 'Essentials',
    items: [
      { text: 'Routes and groups', link: '/essentials/routes' },
      { text: 'Replies', link: '/essentials/replies' },
      { text: 'Requests', link: '/essentials/requests' },
      { text: 'Configuration', link: '/essentials/configuration' },
      { text: 'Validation', link: '/essentials/validation' },
      { text: 'Testing', link: '/essentials/testing' },
    ],
  },
  {
    text: 'Database',
    items: [
      { text: 'The database layer', link: '/database/overview' },
      { text: 'Migrations', link: '/database/migrations' },
      { text: 'Migrations that protect production', link: '/database/migrations-safety' },
      { text: 'Queries', link: '/database/queries' },
      { text: 'Streaming and pagination', link: '/database/streaming-and-pagination' },
      { text: 'Associations', link: '/database/associations' },
      { text: 'Changesets', link: '/database/changesets' },
      { text: 'Scopes and replicas', link: '/database/scopes-and-replicas' },
      { text: 'Hooks and audit', link: '/database/hooks-and-audit' },
    ],
  },
  {
    text: 'HTTP',
    items: [
      { text: 'Security', link: '/http/security' },
      { text: 'User accounts (vela gen auth)', link: '/http/authentication' },
      { text: 'Plugins and hooks', link: '/http/plugins' },
      { text: 'Views and static files', link: '/http/views' },
      { text: 'The OpenAPI document', link: '/http/openapi' },
      { text: 'Shapes and the typed client', link: '/http/typed-client' },
    ],
  },
  {
    text: 'Jobs and mail',
    items: [
      { text: 'Jobs', link: '/jobs/overview' },
      { text: 'Mail', link: '/mail/overview' },
    ],
  },
  {
    text: 'Real time',
    items: [{ text: 'WebSockets and topics', link: '/real-time/websockets' }],
  },
  {
    text: 'Telemetry',
    items: [
      { text: 'Traces and metrics', link: '/telemetry/overview' },
      { text: 'Installing the SDK', link: '/telemetry/sdk' },
      { text: 'Request traces', link: '/telemetry/traces' },
      { text: 'HTTP and your own metrics', link: '/telemetry/metrics' },
    ],
  },
  {
    text: 'Tooling',
    items: [
      { text: 'The CLI', link: '/tooling/cli' },
      { text: 'The Vite plugin', link: '/tooling/vite' },
      { text: 'The development dashboard', link: '/tooling/dashboard' },
    ],
  },
  {
    text: 'Deploy',
    items: [
      { text: 'Building and deploying', link: '/deploy/deployment' },
      { text: 'Every core (VELA_WORKERS)', link: '/deploy/scaling' },
      { text: 'Shutdown and readiness', link: '/deploy/shutdown' },
    ],
  },
  {
    text: 'Examples',
    items: [
      { text: 'Examples', link: '/examples/' },
      { text: 'A JSON API with accounts', link: '/examples/json-api' },
      { text: 'A server-rendered app with sessions', link: '/examples/server-rendered' },
      { text: 'A WebSocket chat', link: '/examples/chat' },
      { text: 'A background job', link: '/examples/jobs' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'vela', link: '/reference/vela' },
      { text: 'vela/vite', link: '/reference/vite' },
      { text: 'vela/dbl', link: '/reference/dbl' },
      { text: 'vela/telemetry', link: '/reference/telemetry' },
      { text: 'vela/jobs', link: '/reference/jobs' },
      { text: 'vela/mail', link: '/reference/mail' },
      { text: 'vela/testing', link: '/reference/testing' },
      { text: 'vela/client', link: '/reference/client' },
      { text: 'The vela command', link: '/reference/cli' },
    ],
  },
  {
    text: 'Internals',
    collapsed: true,
    items: [
      { text: 'The request path', link: '/internals/request-path' },
      { text: 'Routes, replies and plugins', link: '/internals/http' },
      { text: 'Deadlines and failed bodies', link: '/internals/request-faults' },
      { text: 'Security internals', link: '/internals/security' },
      { text: 'Shutdown internals', link: '/internals/shutdown' },
      { text: 'Jobs: internals', link: '/internals/jobs' },
      { text: 'Every core: internals', link: '/internals/cluster' },
      { text: 'Deployment examples: tests', link: '/internals/deployment' },
      { text: 'WebSocket limits', link: '/internals/websocket-limits' },
      { text: 'WebSocket topics', link: '/internals/websocket-topics' },
      { text: 'Database internals', link: '/internals/database' },
      { text: 'Database deadlines', link: '/internals/database-deadlines' },
      { text: 'Telemetry internals', link: '/internals/telemetry' },
      { text: 'The Vite side', link: '/internals/vite-plugin' },
      { text: 'The dashboard: internals', link: '/internals/dashboard' },
    ],
  },
  {
    text: 'Project',
    items: [
      { text: 'Changelog', link: '/project/changelog' },
      { text: 'Upgrading from 0.1', link: '/project/upgrading' },
      { text: 'Benchmarks', link: '/project/benchmarks' },
      { text: 'Benchmarks: earlier figures', link: '/project/benchmarks-history' },
      { text: 'The playground', link: '/project/playground' },
      { text: 'What npm test checks', link: '/project/npm-test' },
      { text: 'Fault suite and soak', link: '/project/fault-suite' },
    ],
  },
]

/** The repository's web address, from package.json's `repository` (one place to change it). */
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  repository: { url: string }
}
const REPOSITORY = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')

export default defineConfig({
  title: 'Vela',
  description: 'A TypeScript web framework delivered as a Vite plugin.',
  // Pages write placeholders such as `<pid>` in plain text: raw HTML is off, so they show as written.
  // `<!--@include: -->` still works: VitePress inlines the file before the markdown is parsed.
  markdown: { html: false, config: pointMovedLinks },
  // Links to a local server (http://localhost:8080 in the guide) are addresses to visit, not pages.
  ignoreDeadLinks: 'localhostLinks',
  // "Edit this page" opens the file in the repository (`filePath` is used for nothing else): the
  // changelog page only includes CHANGELOG.md, and generated pages have nothing to edit (a change
  // belongs in the sources they are made from).
  transformPageData(page) {
    if (page.relativePath.startsWith('reference/')) page.frontmatter.editLink = false
    page.filePath = page.relativePath === 'project/changelog.md' ? 'CHANGELOG.md' : `docs/${page.filePath}`
  },
  buildEnd: (site) => writeRedirects(site.outDir, site.site.base),
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guide', link: '/essentials/routes' },
      { text: 'Reference', link: '/reference/vela' },
      { text: 'Changelog', link: '/project/changelog' },
    ],
    sidebar: SIDEBAR,
    outline: { level: [2, 3] },
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
    editLink: { pattern: `${REPOSITORY}/edit/main/:path`, text: 'Edit this page' },
  },
})
