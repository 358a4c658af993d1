/**
 * The app as a runner gives it, whichever runner loads it (Vite's, app-loader.ts, or the CLI's
 * light loader, light/loader.ts): `virtual:vela/app` and what it exports. Imports no Vite, so the
 * light loader's path does not load it.
 */
import type { AppConfig } from '../server/app/config.ts'
import type { CreateAppOptions, VelaApp } from '../server/app/create-app.ts'
import { APP_ENTRY } from './app-entry.ts'

/** Imports a module (a file path, or a virtual module id) through a runner. */
export type ImportModule = (file: string) => Promise<Record<string, unknown>>

/** What `virtual:vela/app` exports. */
export interface AppEntry {
  /** The app's config, with its discovered routes and controllers. */
  readonly config: AppConfig
  create(opts?: CreateAppOptions): VelaApp
}

/** A way to import an app's modules, made for one command or build and closed after it. */
export interface AppRunner {
  /** Imports a module (a file, or a virtual module) through the runner; a failure is a load failure. */
  readonly load: ImportModule
  /** The files of the modules it evaluated so far. */
  evaluatedFiles(): string[]
  /** Closes the runner and its environment; again, it does nothing. */
  close(): Promise<void>
}

/** `virtual:vela/app`, through a runner's `load`. */
export async function appEntry(load: ImportModule): Promise<AppEntry> {
  return (await load(APP_ENTRY)) as unknown as AppEntry
}

/** The app `virtual:vela/app` creates (with its own `createApp`); not started. */
export async function createAppIn(load: ImportModule, env: NodeJS.ProcessEnv = process.env): Promise<VelaApp> {
  return (await appEntry(load)).create({ env })
}
