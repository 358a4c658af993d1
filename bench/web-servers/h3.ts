/** Bare h3: liquidjs called directly in a handler, and h3's own serveStatic over node:fs. */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { H3, serve, serveStatic } from 'h3'
import { Liquid } from 'liquidjs'
import { assetsDir, notes, viewsDir } from './fixtures.ts'

const liquid = new Liquid({ root: viewsDir, extname: '.liquid', outputEscape: 'escape', cache: true })
const file = (id: string) => join(assetsDir, id.slice('/assets'.length))

const app = new H3()
  .get('/notes', async (event) => {
    const html = (await liquid.renderFile('notes', { title: 'All notes', notes, csrf_token: '' })) as string
    event.res.headers.set('content-type', 'text/html; charset=utf-8')
    return html
  })
  .get('/assets/**', (event) =>
    serveStatic(event, {
      getMeta: async (id) => {
        const s = await stat(file(id)).catch(() => undefined)
        return s?.isFile() ? { size: s.size, mtime: s.mtimeMs, type: 'text/css; charset=utf-8' } : undefined
      },
      getContents: (id) => readFile(file(id)),
    }),
  )
serve(app, { port: Number(process.env.PORT), silent: true, gracefulShutdown: false })
