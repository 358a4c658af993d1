// The package's entry points, each with the reference page it gets. The lead is the page's first
// paragraph, for users: the index files' own module comments are written for maintainers.

/** One subpath export: its import name, the page it gets and the file it comes from. */
export interface Entry {
  subpath: string
  page: string
  index: string
  /** What the entry point is for, in a sentence or two (markdown). */
  lead: string
  /** A declaration file of `declare module '…'` blocks whose modules the page lists too. */
  virtualModules?: string
}

export const ENTRIES: Entry[] = [
  {
    subpath: 'vela',
    page: 'vela',
    index: 'server/index.ts',
    lead: 'The runtime: what an application imports to define its routes, handlers and plugins, to create the app and to serve it.',
  },
  {
    subpath: 'vela/vite',
    page: 'vite',
    index: 'vite-plugin/index.ts',
    lead: "The Vite plugin: `plugins: [vela()]` in the app's `vite.config.ts` runs the app under `vite`, edits swapped in place, and builds it into `dist/server/index.mjs` with `vite build`.",
  },
  {
    subpath: 'vela/dbl',
    page: 'dbl',
    index: 'dbl/index.ts',
    lead: 'The database layer: schemas, changesets and validations, the query builder, the repository and migrations.',
  },
  {
    subpath: 'vela/telemetry',
    page: 'telemetry',
    index: 'telemetry/index.ts',
    lead: "OpenTelemetry traces and HTTP metrics for a Vela app: `setupTelemetry()` in the app's `start` hook, and `telemetryStreamHandler` in `server.streamHandlers`.",
  },
  {
    subpath: 'vela/jobs',
    page: 'jobs',
    index: 'jobs/index.ts',
    lead: "Background jobs in the app's own database: `defineJob` in `src/jobs/*.ts`, `job.enqueue(args)` (in the caller's transaction when there is one), workers in the app or in `vela jobs work`, on pg-boss.",
  },
  {
    subpath: 'vela/mail',
    page: 'mail',
    index: 'mail/index.ts',
    lead: "Sending mail: `defineMailer({ from, transport })` with SMTP through nodemailer and Liquid templates; in development and tests messages are kept in a mailbox (the dashboard's Mail page, `sentMail()` in `vela/testing`) instead of being sent.",
  },
  {
    subpath: 'vela/testing',
    page: 'testing',
    index: 'server/testing/index.ts',
    lead: "Testing an app: the app under test made from the app's own sources (`createTestApp`), and requests to any app in-process (`inject`) or over a real listener (`startTestServer`).",
  },
  {
    subpath: 'vela/client',
    page: 'client',
    index: 'client/index.ts',
    lead: 'A typed client for the app\'s routes (`createClient<Routes>(baseUrl)`), and the types of the virtual modules the Vite plugin serves (`"types": ["node", "vela/client"]` in the app\'s `tsconfig.json`).',
    virtualModules: 'vite-plugin/client.d.ts',
  },
]
