/**
 * Views: Liquid templates (liquidjs) in `src/views/*.liquid`. `view(vars)` renders the
 * controller's default view (`notes_controller` → `notes.liquid`), `view(vars, { view })` a named
 * one. Output is HTML-escaped unless a template says `| raw`; `{% layout %}`, `{% render %}` and
 * `{% include %}` resolve in the same directory. In production (`environment !== 'dev'`) every
 * template is parsed once and kept; in development each render re-reads the files, so an edit
 * shows on the next request without a restart.
 *
 * **Choice:** `views.dir` (default `src/views`) is resolved against the app root (`createApp`'s
 * `root`: the Vite root in dev and the CLI, `dist/` in a built server, which the build fills with
 * `dist/src/views/`), not the working directory, so a server started from any folder finds its
 * templates. An absolute `dir` is kept as given.
 */
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Liquid, Template } from 'liquidjs'
import type { ViewsConfig } from '../contracts/config.ts'
import type { ViewReply } from '../replies.ts'
import type { VelaRequest } from '../request.ts'

export type { ViewsConfig }

/** Renders a view reply to HTML for a request (the runtime's view renderer). */
export type RenderView = (reply: ViewReply, req: VelaRequest) => Promise<string>

export interface ViewRendererOptions extends ViewsConfig {
  /** Parse once and keep (production) or re-read on every render (development). */
  cache: boolean
  /** What a relative `dir` is resolved against (default: the working directory). */
  root?: string
}

// View names come from code, but a name like `../secrets` must still not leave the directory.
const VIEW_NAME = /^[\w-]+(?:\/[\w-]+)*$/

/** The default view of a controller: its name without the `_controller` suffix. */
export function defaultViewName(controller: string): string {
  const base = controller.slice(controller.lastIndexOf('/') + 1)
  return base.endsWith('_controller') ? base.slice(0, -'_controller'.length) : base
}

export function createViewRenderer(opts: ViewRendererOptions): RenderView {
  const dir = resolve(opts.root ?? '.', opts.dir ?? 'src/views')
  // liquidjs is loaded on the first render: an API without views never pays for it.
  let engine: Promise<Liquid> | undefined
  const liquidEngine = () =>
    (engine ??= import('liquidjs').then(
      ({ Liquid }) =>
        new Liquid({
          root: dir,
          extname: '.liquid',
          outputEscape: 'escape',
          cache: opts.cache,
          // Layouts and partials may only come from the views directory.
          relativeReference: false,
        }),
    ))
  const parsed = new Map<string, Promise<Template[]>>()

  async function load(name: string, controller: string): Promise<Template[]> {
    const file = join(dir, `${name}.liquid`)
    if (!VIEW_NAME.test(name))
      throw new Error(`view name ${JSON.stringify(name)} (from ${controller}) is not a plain template name`)
    const found = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    )
    if (!found)
      throw new Error(`view ${JSON.stringify(name)} not found: looked for ${file} (rendering for ${controller})`)
    return (await liquidEngine()).parseFile(name)
  }

  return async function renderView(reply, req) {
    const controller = req.route.controller
    const name = reply.view ?? defaultViewName(controller)
    let templates: Promise<Template[]>
    if (opts.cache) {
      templates = parsed.get(name) ?? load(name, controller)
      parsed.set(name, templates)
      // A failed lookup is not cached: the file may appear after a deploy step.
      templates.catch(() => parsed.get(name) === templates && parsed.delete(name))
    } else {
      templates = load(name, controller)
    }
    // The CSRF plugin sets req.csrfToken; without it a view still gets the variable, empty.
    const scope = { ...reply.vars, csrf_token: req.csrfToken ?? reply.vars.csrf_token ?? '' }
    const parsedTemplates = await templates // (load() has started the engine)
    return (await liquidEngine()).render(parsedTemplates, scope) as Promise<string>
  }
}
