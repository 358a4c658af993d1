/**
 * Which loader the CLI uses for an app: the light loader (loader.ts) when nothing about the app
 * needs Vite to load its modules, else Vite's module runner (app-loader.ts), as before. Vite is
 * kept when:
 * - `VELA_CLI_LOADER=vite` is set (a way out, should the light loader ever load an app otherwise);
 * - the command asks for a Vite mode or config loader of its own;
 * - the app's Vite config is more than `vela()` and inert settings (plain-config.ts);
 * - the app has `.env` files for the mode (Vite reads them: `import.meta.env`, `NODE_ENV`);
 * - Vite's transform and glob packages cannot be found (tools.ts).
 * Past this choice, a module the light loader cannot load as Vite would sends the app to Vite
 * too, when nothing of it has run yet (loader.ts, cli/commands/load.ts).
 */
import { lightTools } from './tools.ts'
import { envFiles, plainConfig, viteConfigFile } from './plain-config.ts'
import type { LightRunner } from './loader.ts'
import { openLightRunner } from './loader.ts'

/** What the command asked of the loader (withAppRunner's options). */
export interface LightChoice {
  /** `vela({ app })` for an app without a config file. */
  readonly app?: string
  /** A Vite mode or config loader the command asked for: Vite is used. */
  readonly mode?: string
  readonly configLoader?: unknown
}

/** A light runner for the app in `root`, or undefined when it must be loaded through Vite. */
export async function lightRunnerFor(root: string, choice: LightChoice = {}): Promise<LightRunner | undefined> {
  if (process.env.VELA_CLI_LOADER === 'vite' || choice.mode !== undefined || choice.configLoader !== undefined)
    return undefined
  if (envFiles(root, 'development').length) return undefined
  const tools = await lightTools()
  if (!tools) return undefined
  const file = viteConfigFile(root)
  let app = choice.app
  if (file) {
    const verdict = plainConfig(file, tools.parse)
    if ('fallback' in verdict) return undefined
    app = verdict.app
  }
  return openLightRunner(root, app, tools)
}
