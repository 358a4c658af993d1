// Types of the virtual modules vela/vite serves to an app (app-entry.ts).
declare module 'virtual:vela/migrations' {
  /** The app's src/migrations/*, compiled in, sorted by version: `migrate(repo, migrations)`. */
  export const migrations: import('vela/dbl').Migration[]
}
