/**
 * A message's bodies from its template: `<dir>/<name>.html.liquid` and `<dir>/<name>.text.liquid`
 * (liquidjs), rendered with the message's `data`. HTML output is escaped unless the template says
 * `| raw`; the text body is not escaped (it is not HTML). `{% render %}` and `{% layout %}` resolve
 * in the same folder, so mails can share a layout. With `cache` each file is parsed once.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Liquid, Template } from 'liquidjs'
import { VelaError } from '../server/errors/vela-error.ts'

/** Where a mailer's templates are by default, relative to the app root (the build copies it under `dist/`). */
export const MAIL_TEMPLATES_DIR = 'src/mail'

// Template names come from code, but `../secrets` must still not leave the folder.
const TEMPLATE_NAME = /^[\w-]+(?:\/[\w-]+)*$/

/** The bodies a template gave; a body whose file does not exist is undefined. */
export interface RenderedBodies {
  readonly html?: string
  readonly text?: string
}

/** Renders templates from `dir`; `cache` keeps each parsed file. */
export function createMailTemplates(dir: string, cache: boolean) {
  let engines: Promise<{ html: Liquid; text: Liquid }> | undefined
  // liquidjs loads with the first templated message: an app that sends none never pays for it.
  const load = () =>
    (engines ??= import('liquidjs').then(({ Liquid }) => {
      const options = { root: dir, cache, relativeReference: false, extname: '.liquid' }
      return { html: new Liquid({ ...options, outputEscape: 'escape' }), text: new Liquid(options) }
    }))
  const parsed = new Map<string, Promise<Template[] | undefined>>()

  const parse = (engine: Liquid, file: string): Promise<Template[] | undefined> => {
    const read = readFile(join(dir, file), 'utf8').then(
      (source) => engine.parse(source, file),
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined
        throw err
      },
    )
    if (!cache) return read
    let p = parsed.get(file)
    if (!p) parsed.set(file, (p = read))
    return p
  }

  return {
    /** Renders `name`'s HTML and text files with `data`; throws VELA_ERR_MAIL when the name is bad or neither file exists. */
    async render(name: string, data: Readonly<Record<string, unknown>>): Promise<RenderedBodies> {
      if (!TEMPLATE_NAME.test(name))
        throw new VelaError('VELA_ERR_MAIL', `mail template names are words and slashes, not ${JSON.stringify(name)}`)
      const { html, text } = await load()
      const [htmlTemplate, textTemplate] = await Promise.all([
        parse(html, `${name}.html.liquid`),
        parse(text, `${name}.text.liquid`),
      ])
      if (!htmlTemplate && !textTemplate)
        throw new VelaError(
          'VELA_ERR_MAIL',
          `no mail template ${JSON.stringify(name)}: neither ${join(dir, `${name}.html.liquid`)} nor ${name}.text.liquid exists`,
        )
      return {
        html: htmlTemplate && (await html.render(htmlTemplate, data)),
        text: textTemplate && (await text.render(textTemplate, data)),
      }
    },
  }
}
